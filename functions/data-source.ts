import type { z } from 'zod';
import { EDGE_DATASET_PATH, EdgeDatasetSchema, type EdgeDataset } from '../src/core/dataset.ts';
import { ProviderPageDataSchema, providerPagePath, type ProviderPageData } from '../src/core/provider-page.ts';
import type { Provider } from '../src/core/vocabulary.ts';

/** The build's data could not be read: every output that needs it answers `internal_error`. */
export class DataSourceUnavailable extends Error {
  override name = 'DataSourceUnavailable';
}

type AssetFetcher = Pick<Fetcher, 'fetch'>;

// In production the assets come from the ASSETS binding without leaving the worker. Astro's dev server
// renders prerendered routes on demand and its ASSETS binding holds only public/, so in dev the data is
// asked of the dev server itself.
const devServer: AssetFetcher = { fetch: (input: RequestInfo | URL) => fetch(input) };

const loaded = new Map<string, Promise<unknown>>();

async function fetchAsset<T>(assets: AssetFetcher, origin: string, path: string, schema: z.ZodType<T>): Promise<T> {
  const response = await (import.meta.env.DEV ? devServer : assets).fetch(new URL(path, origin));
  if (!response.ok) throw new DataSourceUnavailable(`${path} answered ${response.status}`);
  const parsed = schema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) throw new DataSourceUnavailable(`${path} does not hold what it should`);
  return parsed.data;
}

/**
 * A data file the build wrote, read and checked once per isolate (in production; in dev on every request).
 * A failed read is not remembered, so the first request after the file is back succeeds.
 */
function loadOnce<T>(assets: AssetFetcher, origin: string, path: string, schema: z.ZodType<T>): Promise<T> {
  // In dev the data follows the event files as they are edited: read on every request, never kept.
  if (import.meta.env.DEV) return fetchAsset(assets, origin, path, schema);
  let loading = loaded.get(path) as Promise<T> | undefined;
  if (loading === undefined) {
    loading = fetchAsset(assets, origin, path, schema).catch((error: unknown) => {
      loaded.delete(path);
      throw error instanceof DataSourceUnavailable ? error : new DataSourceUnavailable(String(error));
    });
    loaded.set(path, loading);
  }
  return loading;
}

/** The edge data set: summaries and newest events per provider (its size does not grow with the history). */
export const loadEdgeDataset = (assets: AssetFetcher, origin: string): Promise<EdgeDataset> =>
  loadOnce(assets, origin, EDGE_DATASET_PATH, EdgeDatasetSchema);

/** A provider page's history, gaps and track record, read only by that page. */
export const loadProviderPage = (assets: AssetFetcher, origin: string, provider: Provider): Promise<ProviderPageData> =>
  loadOnce(assets, origin, providerPagePath(provider), ProviderPageDataSchema);
