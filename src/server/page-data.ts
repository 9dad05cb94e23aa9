import { env } from 'cloudflare:workers';
import { BOARD_PAGE_RECENT_EVENTS, type EdgeDataset, type EdgeSummaries } from '../core/dataset.ts';
import { datasetWithJournal, summariesWithJournal } from '../core/journal/merge.ts';
import { providerPageWithJournal } from '../core/journal/provider-page.ts';
import type { ProviderPageData } from '../core/provider-page.ts';
import type { Event } from '../core/schemas.ts';
import type { SourcesResponse } from '../core/sources.ts';
import type { Provider } from '../core/vocabulary.ts';
import { withBuiltFiles } from './built-files.ts';
import { loadBoardPageDataset, loadEdgeSummaries, loadProviderPage } from './data-source.ts';
import { type JournalData, journalData } from './journal/read.ts';
import { readSourceHealth } from './source-health.ts';

/**
 * The data of on-demand Astro pages: the same files, loaded the same way, as the API's (built-files.ts), with the
 * journal's confirmed events folded in as the API's context folds them (src/server/context.ts).
 */

/** The journal, read once per page render (Astro hands every call of one render the same `url`). */
const journals = new WeakMap<URL, JournalData>();
function pageJournal(url: URL): Promise<readonly Event[]> {
  let journal = journals.get(url);
  if (journal === undefined) {
    journal = journalData(withBuiltFiles(env).ASSETS, env.DB, url.origin);
    journals.set(url, journal);
  }
  return journal.journal();
}

/** The board page's data: the summaries, the forecast scores and each provider's 10 newest events (about 20 KiB). */
export async function pageDataset(url: URL): Promise<EdgeDataset> {
  const [dataset, journal] = await Promise.all([
    loadBoardPageDataset(withBuiltFiles(env).ASSETS, url.origin),
    pageJournal(url),
  ]);
  return datasetWithJournal(dataset, journal, BOARD_PAGE_RECENT_EVENTS);
}

/** A provider page's summaries (`/data/summaries.json`, 15 KiB): it reads nothing else of the edge data set. */
export async function pageSummaries(url: URL): Promise<EdgeSummaries> {
  const [summaries, journal] = await Promise.all([
    loadEdgeSummaries(withBuiltFiles(env).ASSETS, url.origin),
    pageJournal(url),
  ]);
  return summariesWithJournal(summaries, journal);
}

export async function providerPageData(url: URL, provider: Provider, now: Date): Promise<ProviderPageData> {
  const [page, summaries, journal] = await Promise.all([
    loadProviderPage(withBuiltFiles(env).ASSETS, url.origin, provider),
    pageSummaries(url),
    pageJournal(url),
  ]);
  return providerPageWithJournal(page, journal, summaries[provider], now);
}

/** The sources' health for the board's line (the same reading as GET /api/sources). */
export const pageSourceHealth = (now: Date): Promise<SourcesResponse> => readSourceHealth(env, now);

/** On-demand pages that show the board are cached at the edge like GET /api/status. */
export { BOARD_PAGE_CACHE } from '../core/page-slots/templates.ts';
