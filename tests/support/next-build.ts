import { access, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { giveNewBuildId } from '../../scripts/lib/new-build-id.ts';
import { publishEvents } from '../../src/core/dataset.ts';
import { RECORD_SHARD_COUNT, type RecordShard, recordShardPath } from '../../src/core/event-records.ts';
import { PRERENDERED_FILES } from '../../src/core/prerendered.ts';
import type { EventProvenance } from '../../src/core/provenance.ts';
import type { Event } from '../../src/core/schemas.ts';
import { PROVIDERS } from '../../src/core/vocabulary.ts';
import { copyBuild, dropPageTemplates } from './served-site.ts';

/**
 * The next build, in seconds instead of a build's minute: a copy of a build whose every file the edge reads
 * (`PRERENDERED_FILES`: the data set, the summaries, the records, the timelines, the feeds, the calendars' events,
 * the provider pages) is written again by the core's own build functions from `events`, as `astro build` writes
 * them (src/build/prerendered.ts calls the same functions), with a new build id (scripts/lib/new-build-id.ts). The
 * provenance of each event the copy already had is kept from its records; a new one's is unknown, as outside a git
 * checkout. What the pages render at request time comes from these files, so the board shows what they hold; the
 * pages' templates, which only Astro writes, are left out (`dropPageTemplates`).
 */

/** Every event file of an event tree (`<provider>/<id>.json`), drafts included (the build publishes the verified). */
export async function readEventTree(eventsDir: string): Promise<Event[]> {
  const events: Event[] = [];
  for (const provider of PROVIDERS) {
    const folder = path.join(eventsDir, provider);
    for (const name of (await readdir(folder)).filter((file) => file.endsWith('.json')).sort())
      events.push(JSON.parse(await readFile(path.join(folder, name), 'utf8')) as Event);
  }
  return events;
}

/** Makes `to` the next build of `from` holding `events`; resolves with its build id. */
export async function nextBuildWith(
  from: string,
  to: string,
  events: readonly Event[],
  baseUrl: string,
  builtAt = new Date(),
): Promise<string> {
  await copyBuild(from, to);
  await dropPageTemplates(to);
  const client = path.join(to, 'client');
  const provenance = new Map<string, EventProvenance>();
  for (let shard = 0; shard < RECORD_SHARD_COUNT; shard += 1) {
    const { records } = JSON.parse(await readFile(path.join(client, recordShardPath(shard)), 'utf8')) as RecordShard;
    for (const [id, record] of Object.entries(records)) provenance.set(id, record.provenance);
  }
  const { stamp } = JSON.parse(await readFile(path.join(client, 'data/board.json'), 'utf8')) as {
    stamp: { buildId: string };
  };
  const input = { published: publishEvents(events, builtAt), baseUrl, buildId: stamp.buildId, provenance };
  for (const [file, body] of Object.entries(PRERENDERED_FILES)) {
    const target = path.join(client, file);
    // Only files the build wrote: a path that is not there means this helper and the build disagree.
    await access(target);
    await writeFile(target, body(input));
  }
  return giveNewBuildId(to);
}
