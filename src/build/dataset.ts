import { getCollection } from 'astro:content';
import { BUILD_ID } from '../server/build-id.ts';
import { publishEvents, type PublishedEvents } from '../core/dataset.ts';
import type { EventProvenance } from '../core/provenance.ts';
import { eventsDirectory } from '../node/events-directory.ts';
import { readProvenance } from '../node/provenance.ts';

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
 * Each published event's provenance, from one `git log` pass over the event tree per build (never per file or
 * per page); every field null outside a git checkout. Commit links use `REPOSITORY_URL` when it is set.
 */
export const buildTimeProvenance = (): Promise<ReadonlyMap<string, EventProvenance>> =>
  (provenance ??= buildTimeEvents().then((events) =>
    readProvenance({ eventsDir: eventsDirectory(), events: events.events }),
  ));

/** The stamp's build id: the one astro.config.mjs gave this build (the worker of the same build expects it). */
export function buildStampId(): string {
  if (BUILD_ID === undefined) throw new Error('BUILD_ID is not set: the data files are written only by `astro build`');
  return BUILD_ID;
}
