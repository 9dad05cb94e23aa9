import { env } from 'cloudflare:workers';
import type { EdgeDataset } from '../core/dataset.ts';
import { CACHE_POLICIES } from '../core/routes/policy.ts';
import type { ProviderPageData } from '../core/provider-page.ts';
import type { SourcesResponse } from '../core/sources.ts';
import type { Provider } from '../core/vocabulary.ts';
import { loadEdgeDataset, loadProviderPage } from './data-source.ts';
import { readSourceHealth } from './source-health.ts';

/** The data of on-demand Astro pages: the same files, loaded the same way, as the API's. */
export const pageDataset = (url: URL): Promise<EdgeDataset> => loadEdgeDataset(env.ASSETS, url.origin);

export const providerPageData = (url: URL, provider: Provider): Promise<ProviderPageData> =>
  loadProviderPage(env.ASSETS, url.origin, provider);

/** The sources' health for the board's line (the same reading as GET /api/sources). */
export const pageSourceHealth = (now: Date): Promise<SourcesResponse> => readSourceHealth(env, now);

/** On-demand pages that show the board are cached at the edge like GET /api/status. */
export const BOARD_PAGE_CACHE = CACHE_POLICIES.api;
