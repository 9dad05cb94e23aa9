import { getCollection } from 'astro:content';
import { publishEvents, type PublishedEvents } from '../core/dataset.ts';

let published: Promise<PublishedEvents> | undefined;

/**
 * The published events as one build sees them, with one build time: every prerendered output of a build
 * shares them, so they all agree with each other and with the edge data set.
 */
export const buildTimeEvents = (): Promise<PublishedEvents> =>
  (published ??= getCollection('events').then((entries) =>
    publishEvents(
      entries.map((entry) => entry.data),
      new Date(),
    ),
  ));
