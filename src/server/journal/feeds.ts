import { recentEvents } from '../../core/dataset.ts';
import { journalBuiltAt } from '../../core/journal/built-outputs.ts';
import { FEED_ITEM_LIMIT, type FeedFormat } from '../../core/render/feed-formats.ts';
import type { Provider } from '../../core/vocabulary.ts';
import { BASE_URL } from '../base-url.ts';
import type { JournalData } from './read.ts';

/**
 * The feed of a selection with the journal's events (decisions.md, "Confirmed within a minute"), or null when the
 * journal holds none of the selection and the built file stands. Written as the build writes the file: the same
 * renderer, the selection's newest items from the feeds' slice of the data set with the journal folded in (each
 * provider's 100 newest, `DATASET_SLICES.feed`, cover a feed's 100), and the time a build holding them would carry (`journalBuiltAt`, docs/watch.md, "The
 * journal"). The renderer and its library are loaded only then: an isolate that serves built feeds never evaluates
 * them. GET answers it (functions/api/feeds.ts) and WebSub distributes it (channels/websub), the same bytes.
 */
export async function journalFeed(
  data: Pick<JournalData, 'journalEntries' | 'datasetSlice'>,
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
