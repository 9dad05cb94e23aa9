import { z } from 'zod';
import { BuildStampSchema } from './build-stamp.ts';
import { EventRecordSchema, UNKNOWN_PROVENANCE, type EventProvenance, type EventRecord } from './provenance.ts';
import type { Event } from './schemas.ts';
import { eventPageUrl } from './site.ts';

/**
 * `GET /api/events/<id>` answers from built files, never from the history: every published event's record
 * (the event, its page, its provenance) is written at build time into one of a fixed number of shard files,
 * picked by a stable hash of the id. One file per event would not do: the Workers Free plan allows 20,000
 * asset files per deployment, and 100,000 events must still build. The edge reads the one shard an id
 * hashes to (at 10,000 events about 40 records, at 100,000 about 400).
 */

/** 256 shards: two hex digits; a fixed number, so the edge finds a shard without an index. */
export const RECORD_SHARD_COUNT = 256;

/**
 * FNV-1a (32 bits) of the id's UTF-16 code units, modulo the shard count: stable across builds, runtimes and
 * machines (ids are ASCII, so code units are bytes).
 */
export function recordShardOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < id.length; index += 1) {
    hash ^= id.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % RECORD_SHARD_COUNT;
}

export const recordShardPath = (shard: number): string => `/data/records/${shard.toString(16).padStart(2, '0')}.json`;

export const RecordShardSchema = z.strictObject({
  records: z.record(z.string(), EventRecordSchema).describe('the records of the ids that hash to this shard, by id'),
});
export type RecordShard = z.infer<typeof RecordShardSchema>;

/** A shard as the build writes it, stamped (the worker checks only the stamp). */
export const RecordShardFileSchema = RecordShardSchema.extend({ stamp: BuildStampSchema }).meta({
  id: 'EventRecordShard',
});

export const eventRecord = (event: Event, provenance: EventProvenance | undefined, baseUrl: string): EventRecord => ({
  event,
  pageUrl: eventPageUrl(baseUrl, event),
  provenance: provenance ?? UNKNOWN_PROVENANCE,
});

const grouped = new WeakMap<readonly Event[], Event[][]>();

/** The events of each shard, computed once per list of events (each shard file of a build asks for its own). */
export function eventsByShard(events: readonly Event[]): Event[][] {
  let shards = grouped.get(events);
  if (shards === undefined) {
    shards = Array.from({ length: RECORD_SHARD_COUNT }, () => []);
    for (const event of events) shards[recordShardOf(event.id)]!.push(event);
    grouped.set(events, shards);
  }
  return shards;
}

/** One shard of the published events' records. */
export function buildRecordShard(
  shard: number,
  events: readonly Event[],
  provenance: ReadonlyMap<string, EventProvenance>,
  baseUrl: string,
): RecordShard {
  const records: Record<string, EventRecord> = {};
  for (const event of eventsByShard(events)[shard]!)
    records[event.id] = eventRecord(event, provenance.get(event.id), baseUrl);
  return { records };
}

/** The record of `id` in a shard, never a property every object has (`constructor`, `toString`). */
export const recordIn = (shard: RecordShard, id: string): EventRecord | undefined =>
  Object.hasOwn(shard.records, id) ? shard.records[id] : undefined;
