import { DATASET_SLICES, type DatasetSlice, type EdgeDataset } from '../../core/dataset.ts';
import { datasetWithJournal } from '../../core/journal/merge.ts';
import type { Event } from '../../core/schemas.ts';
import { loadDatasetSlice } from '../data-source.ts';
import { type JournalEntry, readJournalVersion, readLiveJournal } from './store.ts';

/**
 * What every output that lists events or derives the board adds to the build's data: the live journal's events
 * (decisions.md, "Confirmed within a minute"). Each request asks D1 for the journal's version (one row: the table
 * `journal_version`, a random stamp a trigger replaces at every confirm, withdrawal and retirement); the isolate keeps
 * the live entries of the version it last read and reads them again only when the stamp changed. So a confirm or a
 * withdrawal shows on the next request whichever isolate answers it, and a request reads one row however long the
 * journal is (docs/performance.md, "The journal's cost"). The version is read before the entries: an isolate may then
 * keep newer entries under an older stamp (read again at the next request), never older entries under a newer one.
 * Without D1 there is no journal. A D1 that does not answer leaves the build's data alone, as if the journal were
 * empty, and says so in the log: the event is not lost (its row waits in D1) and the page is not broken.
 */
export async function journalEvents(db: D1Database | undefined): Promise<readonly Event[]> {
  return (await liveJournal(db)).map((entry) => entry.event);
}

let kept: { db: D1Database; version: string; entries: readonly JournalEntry[] } | undefined;

/** Forgets the kept entries: what a fresh isolate starts from (the CPU benchmark's cold start). */
export const forgetKeptJournal = (): void => {
  kept = undefined;
};

/**
 * The live journal's entries, read as `journalEvents` reads them: for the outputs that also say when an event was
 * confirmed or where its file stands (the feeds' time, `/api/events/<id>`).
 */
export async function liveJournal(db: D1Database | undefined): Promise<readonly JournalEntry[]> {
  if (db === undefined) return [];
  try {
    const version = await readJournalVersion(db);
    if (version !== null && kept?.db === db && kept.version === version) return kept.entries;
    const entries = await readLiveJournal(db);
    // A missing version row (deleted by hand) is never kept: every request reads the entries then.
    kept = version === null ? undefined : { db, version, entries };
    return entries;
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

/** The live journal read once for one reader (a request's context, a WebSub send), and the build's data with it. */
export interface JournalData {
  /** The live entries: when each event was confirmed and where its file stands. */
  journalEntries(): Promise<readonly JournalEntry[]>;
  /** Their events. */
  journal(): Promise<readonly Event[]>;
  /** A slice of the data set with the journal folded in (the feeds read `'feed'`). */
  datasetSlice(slice: DatasetSlice): Promise<EdgeDataset>;
}

export function journalData(assets: Pick<Fetcher, 'fetch'>, db: D1Database | undefined, origin: string): JournalData {
  let entries: Promise<readonly JournalEntry[]> | undefined;
  let events: Promise<readonly Event[]> | undefined;
  const journalEntries = () => {
    entries ??= liveJournal(db);
    return entries;
  };
  const journal = () => {
    events ??= journalEntries().then((live) => live.map((entry) => entry.event));
    return events;
  };
  return {
    journalEntries,
    journal,
    async datasetSlice(slice) {
      const [dataset, live] = await Promise.all([loadDatasetSlice(assets, origin, slice), journal()]);
      return datasetWithJournal(dataset, live, DATASET_SLICES[slice].perProvider);
    },
  };
}
