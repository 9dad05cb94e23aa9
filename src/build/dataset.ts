import { getCollection } from 'astro:content';
import { BUILD_ID } from '../server/build-id.ts';
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

/** The stamp's build id: the one astro.config.mjs gave this build (the worker of the same build expects it). */
export function buildStampId(): string {
  if (BUILD_ID === undefined) throw new Error('BUILD_ID is not set: the data files are written only by `astro build`');
  return BUILD_ID;
}
