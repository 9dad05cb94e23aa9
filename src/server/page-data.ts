import { env } from 'cloudflare:workers';
import type { EdgeDataset, EdgeSummaries } from '../core/dataset.ts';
import { CACHE_POLICIES } from '../core/routes/policy.ts';
import type { ProviderPageData } from '../core/provider-page.ts';
import type { SourcesResponse } from '../core/sources.ts';
import type { Provider } from '../core/vocabulary.ts';
import { withBuiltFiles } from './built-files.ts';
import { loadBoardPageDataset, loadEdgeSummaries, loadProviderPage } from './data-source.ts';
import { readSourceHealth } from './source-health.ts';

/** The data of on-demand Astro pages: the same files, loaded the same way, as the API's (built-files.ts). */
/** The board page's data: the summaries, the forecast scores and each provider's 10 newest events (about 20 KiB). */
export const pageDataset = (url: URL): Promise<EdgeDataset> =>
  loadBoardPageDataset(withBuiltFiles(env).ASSETS, url.origin);

/** A provider page's summaries (`/data/summaries.json`, 15 KiB): it reads nothing else of the edge data set. */
export const pageSummaries = (url: URL): Promise<EdgeSummaries> =>
  loadEdgeSummaries(withBuiltFiles(env).ASSETS, url.origin);

export const providerPageData = (url: URL, provider: Provider): Promise<ProviderPageData> =>
  loadProviderPage(withBuiltFiles(env).ASSETS, url.origin, provider);

/** The sources' health for the board's line (the same reading as GET /api/sources). */
export const pageSourceHealth = (now: Date): Promise<SourcesResponse> => readSourceHealth(env, now);

/** On-demand pages that show the board are cached at the edge like GET /api/status. */
export const BOARD_PAGE_CACHE = CACHE_POLICIES.api;
