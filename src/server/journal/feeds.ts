import { DATASET_SLICES, type DatasetSlice, type EdgeDataset, recentEvents } from '../../core/dataset.ts';
import { journalBuiltAt } from '../../core/journal/built-outputs.ts';
import { datasetWithJournal } from '../../core/journal/merge.ts';
import { FEED_ITEM_LIMIT, type FeedFormat } from '../../core/render/feed-formats.ts';
import type { Provider } from '../../core/vocabulary.ts';
import { BASE_URL } from '../base-url.ts';
import { loadDatasetSlice } from '../data-source.ts';
import { liveJournal } from './read.ts';
import type { JournalEntry } from './store.ts';

/** What a feed with the journal is written from: a request's context has both, and `journalData` makes them. */
export interface JournalData {
  /** A slice of the data set with the journal folded in (the feeds read `'feed'`). */
  datasetSlice(slice: DatasetSlice): Promise<EdgeDataset>;
  journalEntries(): Promise<readonly JournalEntry[]>;
}

/**
 * The feed of a selection with the journal's events (decisions.md, "Confirmed within a minute"), or null when the
 * journal holds none of the selection and the built file stands. Written as the build writes the file: the same
 * renderer, the selection's newest items from the feeds' slice of the data set with the journal folded in (each
 * provider's 100 newest, `DATASET_SLICES.feed`, cover a feed's 100), and the time a build holding them would carry (`journalBuiltAt`, docs/watch.md, "The
 * journal"). The renderer and its library are loaded only then: an isolate that serves built feeds never evaluates
 * them. GET answers it (functions/api/feeds.ts) and WebSub distributes it (channels/websub), the same bytes.
 */
export async function journalFeed(
  data: JournalData,
  format: FeedFormat,
  provider: Provider | undefined,
): Promise<string | null> {
  const journal = await data.journalEntries();
  if (journal.length === 0) return null;
  const dataset = await data.datasetSlice('feed');
  const builtAt = journalBuiltAt(dataset.builtAt, journal, provider);
  if (builtAt === null) return null;
  const { FEED_RENDERERS } = await import('../../core/render/feeds.ts');
  const events = recentEvents(dataset, provider ?? 'all', FEED_ITEM_LIMIT);
  return FEED_RENDERERS[format]({ events, provider, baseUrl: BASE_URL, builtAt });
}

/**
 * A reader's `JournalData` outside a request (the WebSub sender): the build's slices of its data set with the live
 * journal folded in as `createContext` folds them, the journal read once.
 */
export function journalData(assets: Pick<Fetcher, 'fetch'>, db: D1Database | undefined, origin: string): JournalData {
  let entries: Promise<readonly JournalEntry[]> | undefined;
  const journalEntries = () => {
    entries ??= liveJournal(db);
    return entries;
  };
  return {
    journalEntries,
    async datasetSlice(slice) {
      const [dataset, live] = await Promise.all([loadDatasetSlice(assets, origin, slice), journalEntries()]);
      return datasetWithJournal(
        dataset,
        live.map((entry) => entry.event),
        DATASET_SLICES[slice].perProvider,
      );
    },
  };
}
