import { BoardDatasetSchema, DATASET_PATH, type BoardDataset } from '../src/core/dataset.ts';

/** The build's data set could not be read: every output that needs it answers `internal_error`. */
export class DataSourceUnavailable extends Error {
  override name = 'DataSourceUnavailable';
}

let loading: Promise<BoardDataset> | undefined;

type AssetFetcher = Pick<Fetcher, 'fetch'>;

// In production the asset comes from the ASSETS binding without leaving the worker. Astro's dev server
// renders prerendered routes on demand and its ASSETS binding holds only public/, so in dev the
// data set is asked of the dev server itself.
const devServer: AssetFetcher = { fetch: (input: RequestInfo | URL) => fetch(input) };

async function fetchDataset(assets: AssetFetcher, origin: string): Promise<BoardDataset> {
  const response = await (import.meta.env.DEV ? devServer : assets).fetch(new URL(DATASET_PATH, origin));
  if (!response.ok) throw new DataSourceUnavailable(`${DATASET_PATH} answered ${response.status}`);
  const parsed = BoardDatasetSchema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) throw new DataSourceUnavailable(`${DATASET_PATH} is not a valid data set`);
  return parsed.data;
}

/**
 * The published events, read once per isolate from the static asset the build wrote. A failed read is
 * not remembered, so the first request after the asset is back succeeds.
 */
export function loadDataset(assets: AssetFetcher, origin: string): Promise<BoardDataset> {
  loading ??= fetchDataset(assets, origin).catch((error: unknown) => {
    loading = undefined;
    throw error instanceof DataSourceUnavailable ? error : new DataSourceUnavailable(String(error));
  });
  return loading;
}
