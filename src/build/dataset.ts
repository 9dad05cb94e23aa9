import { getCollection } from 'astro:content';
import { BUILD_ID } from '../server/build-id.ts';
import { publishEvents, type PublishedEvents } from '../core/dataset.ts';
import type { EventProvenance } from '../core/provenance.ts';

let published: Promise<PublishedEvents> | undefined;
let provenance: Promise<ReadonlyMap<string, EventProvenance>> | undefined;

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

/**
 * Each event's provenance by id, as the `provenance` collection's loader read it from one `git log` pass over
 * the event tree (src/node/provenance-loader.ts); every field null outside a git checkout.
 */
export const buildTimeProvenance = (): Promise<ReadonlyMap<string, EventProvenance>> =>
  (provenance ??= getCollection('provenance').then(
    (entries) => new Map(entries.map((entry) => [entry.id, entry.data])),
  ));

/** The stamp's build id: the one astro.config.mjs gave this build (the worker of the same build expects it). */
export function buildStampId(): string {
  if (BUILD_ID === undefined) throw new Error('BUILD_ID is not set: the data files are written only by `astro build`');
  return BUILD_ID;
}
