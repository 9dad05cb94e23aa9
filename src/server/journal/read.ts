import type { Event } from '../../core/schemas.ts';
import { type JournalEntry, readLiveJournal } from './store.ts';

/**
 * What every output that lists events or derives the board adds to the build's data: the live journal's events
 * (decisions.md, "Confirmed within a minute"). Read on every request that needs it, never kept by the isolate, so
 * that a confirm or a withdrawal shows on the next request whichever isolate answers it; an empty journal costs one
 * indexed D1 read that returns no row (docs/performance.md, "The journal's cost"). Without D1 there is no journal.
 * A D1 that does not answer leaves the build's data alone, as if the journal were empty, and says so in the log:
 * the event is not lost (its row waits in D1) and the page is not broken.
 */
export async function journalEvents(db: D1Database | undefined): Promise<readonly Event[]> {
  return (await liveJournal(db)).map((entry) => entry.event);
}

/**
 * The live journal's entries, read as `journalEvents` reads them: for the outputs that also say when an event was
 * confirmed or where its file stands (the feeds' time, `/api/events/<id>`).
 */
export async function liveJournal(db: D1Database | undefined): Promise<readonly JournalEntry[]> {
  if (db === undefined) return [];
  try {
    return await readLiveJournal(db);
  } catch (error) {
    console.error('the journal of confirmed events could not be read; serving the build alone:', error);
    return [];
  }
}

/**
 * The journal's state in a cache key: empty for an empty journal (the key a build alone has), else the live ids
 * in order, so that a confirm or a withdrawal changes every page's key at once.
 */
export const journalStateKey = (journal: readonly Event[]): string =>
  journal.length === 0 ? '' : journal.map((event) => event.id).join(',');
