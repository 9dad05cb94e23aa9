import type { EdgeDataset } from '../../core/dataset.ts';
import { recordIn, recordShardOf, recordShardPath, type RecordShard } from '../../core/event-records.ts';
import type { Event } from '../../core/schemas.ts';
import { PROVIDERS } from '../../core/vocabulary.ts';
import { BASE_URL } from '../base-url.ts';
import { BUILD_ID } from '../build-id.ts';
import { readDataFileNow, readEdgeDatasetNow } from '../data-source.ts';
import { type JournalEntry, readLiveJournal, retireHeld } from './store.ts';

/**
 * A journal entry retires when a build that holds its event serves (decisions.md, "Confirmed within a minute"):
 * the dispatch, which reads the serving build's data set each minute and at a new build's first request, looks for
 * each live entry among the build's newest events, and for one it does not find there (an event older than the
 * 500 newest of its provider) in the build's record of that id. Until it retires, every reader leaves out a journal
 * event the build's data names (src/core/journal/merge.ts), so it is never counted twice.
 */
export async function retireWhatTheBuildHolds(
  env: { ASSETS: Pick<Fetcher, 'fetch'>; DB: D1Database },
  built: EdgeDataset,
  journal: readonly JournalEntry[],
  now: Date,
): Promise<Event[]> {
  if (journal.length === 0) return [];
  const listed = new Set(PROVIDERS.flatMap((provider) => built.providers[provider].recent.map((event) => event.id)));
  const held: string[] = [];
  for (const { event } of journal) {
    if (listed.has(event.id) || (await inRecords(env.ASSETS, event.id))) held.push(event.id);
  }
  if (held.length > 0) await retireHeld(env.DB, held, BUILD_ID ?? 'unbuilt', now);
  return journal.filter(({ event }) => !held.includes(event.id)).map(({ event }) => event);
}

async function inRecords(assets: Pick<Fetcher, 'fetch'>, id: string): Promise<boolean> {
  const shard = await readDataFileNow<RecordShard>(assets, BASE_URL, recordShardPath(recordShardOf(id)));
  return recordIn(shard, id) !== undefined;
}

/**
 * The minute cron's own retirement, for a deployment whose dispatch does not run (no delivery queue; where it runs,
 * it retires as it reads the build's data set): the live journal is read first (one query), and the build's data
 * set only when it has entries.
 */
export async function retireJournalNow(env: { ASSETS: Pick<Fetcher, 'fetch'>; DB?: D1Database }, now: Date) {
  if (env.DB === undefined) return;
  const journal = await readLiveJournal(env.DB);
  if (journal.length === 0) return;
  await retireWhatTheBuildHolds(
    { ASSETS: env.ASSETS, DB: env.DB },
    await readEdgeDatasetNow(env.ASSETS, BASE_URL),
    journal,
    now,
  );
}
