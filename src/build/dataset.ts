import { getCollection } from 'astro:content';
import { buildDataset, type BoardDataset } from '../core/dataset.ts';

let dataset: Promise<BoardDataset> | undefined;

/**
 * The published events as one build sees them, with one build time: every prerendered output of a build
 * shares this data set, so they all agree with each other and with /data/events.json.
 */
export const buildTimeDataset = (): Promise<BoardDataset> =>
  (dataset ??= getCollection('events').then((entries) => buildDataset(entries.map((entry) => entry.data), new Date())));
