import { carriesStamp } from '../core/build-stamp.ts';
import {
  BOARD_PAGE_DATASET_PATH,
  DATASET_SLICES,
  type DatasetSlice,
  EDGE_DATASET_PATH,
  EDGE_SUMMARIES_PATH,
  hasEdgeDatasetFrame,
  hasEdgeSummariesFrame,
  type EdgeDataset,
  type EdgeSummaries,
} from '../core/dataset.ts';
import { recordShardPath, type RecordShard } from '../core/event-records.ts';
import {
  providerPagePath,
  type ProviderPageData,
  type ProviderSlotFacts,
  providerSlotFactsPath,
} from '../core/provider-page.ts';
import type { Provider } from '../core/vocabulary.ts';
import { BUILD_ID } from './build-id.ts';
import { readPerIsolate } from './built-files.ts';

/** The build's data could not be read: every output that needs it answers `internal_error`. */
export class DataSourceUnavailable extends Error {
  override name = 'DataSourceUnavailable';
}

/** The ASSETS of the reader's bindings, which every mode reaches the data through (built-files.ts). */
type AssetFetcher = Pick<Fetcher, 'fetch'>;

const loaded = new Map<string, Promise<unknown>>();

/**
 * A data file the build wrote, validated and stamped: the build's own output is trusted after a look at its
 * stamp (src/core/build-stamp.ts), not parsed field by field, so a cold isolate pays only `JSON.parse`, and
 * after `hasFrame`, a check of the few fields its readers walk, where the file has one.
 */
async function fetchStamped<T>(
  assets: AssetFetcher,
  origin: string,
  path: string,
  hasFrame: (data: unknown) => boolean = () => true,
): Promise<T> {
  const response = await assets.fetch(new URL(path, origin));
  if (!response.ok) throw new DataSourceUnavailable(`${path} answered ${response.status}`);
  const data: unknown = await response.json().catch(() => undefined);
  if (!carriesStamp(data, BUILD_ID)) throw new DataSourceUnavailable(`${path} is not a data file of this build`);
  if (!hasFrame(data)) throw new DataSourceUnavailable(`${path} carries this build's stamp but not its shape`);
  return data as T;
}

/** A data file read once per isolate (src/server/built-files.ts, `readPerIsolate`: in dev at every request). */
const loadOnce = <T>(
  assets: AssetFetcher,
  origin: string,
  path: string,
  hasFrame?: (data: unknown) => boolean,
): Promise<T> =>
  readPerIsolate(loaded as Map<string, Promise<T>>, path, () =>
    fetchStamped<T>(assets, origin, path, hasFrame).catch((error: unknown) => {
      throw error instanceof DataSourceUnavailable ? error : new DataSourceUnavailable(String(error));
    }),
  );

/** Forgets every loaded file: what a fresh isolate starts from (the CPU benchmark's cold start). */
export const forgetLoadedData = (): void => loaded.clear();

/** Every provider's summary: all that the status, the forecast and the badges read (about 15 KiB). */
export const loadEdgeSummaries = async (assets: AssetFetcher, origin: string): Promise<EdgeSummaries> =>
  (await loadOnce<{ summaries: EdgeSummaries }>(assets, origin, EDGE_SUMMARIES_PATH, hasEdgeSummariesFrame)).summaries;

/** The edge data set: summaries and newest events per provider (its size does not grow with the history). */
export const loadEdgeDataset = (assets: AssetFetcher, origin: string): Promise<EdgeDataset> =>
  loadOnce(assets, origin, EDGE_DATASET_PATH, hasEdgeDatasetFrame);

/** The board page's slice of the edge data set (`/data/board-page.json`, src/core/dataset.ts). */
export const loadBoardPageDataset = (assets: AssetFetcher, origin: string): Promise<EdgeDataset> =>
  loadOnce(assets, origin, BOARD_PAGE_DATASET_PATH, hasEdgeDatasetFrame);

/** A slice of the edge data set for the outputs the build writes whole (`/data/feed-events.json`, …; dataset.ts). */
export const loadDatasetSlice = (assets: AssetFetcher, origin: string, slice: DatasetSlice): Promise<EdgeDataset> =>
  loadOnce(assets, origin, DATASET_SLICES[slice].path, hasEdgeDatasetFrame);

/**
 * One shard of the events' records (src/core/event-records.ts), read per request and not kept: a long history
 * has 256 of them, and an isolate that kept every shard it was asked for would hold the whole history.
 */
export async function loadRecordShard(assets: AssetFetcher, origin: string, shard: number): Promise<RecordShard> {
  try {
    return await fetchStamped<RecordShard>(assets, origin, recordShardPath(shard));
  } catch (error) {
    throw error instanceof DataSourceUnavailable ? error : new DataSourceUnavailable(String(error));
  }
}

/** A provider page's history, gaps and track record, read only by that page. */
export const loadProviderPage = (assets: AssetFetcher, origin: string, provider: Provider): Promise<ProviderPageData> =>
  loadOnce(assets, origin, providerPagePath(provider));

/** What a provider page's slots read besides the summary, when the page is filled in from its template. */
export const loadProviderSlotFacts = (
  assets: AssetFetcher,
  origin: string,
  provider: Provider,
): Promise<ProviderSlotFacts> => loadOnce(assets, origin, providerSlotFactsPath(provider));

/**
 * The edge data set read now, not from the isolate's copy: the push dispatcher (once a minute) must see the
 * events of the build it runs in the moment they are there, and is the only reader that runs on a clock.
 */
export async function readEdgeDatasetNow(assets: AssetFetcher, origin: string): Promise<EdgeDataset> {
  try {
    return await fetchStamped<EdgeDataset>(assets, origin, EDGE_DATASET_PATH, hasEdgeDatasetFrame);
  } catch (error) {
    throw error instanceof DataSourceUnavailable ? error : new DataSourceUnavailable(String(error));
  }
}

/** A stamped data file of this build read now, not kept: the watcher's configuration, once a minute. */
export async function readDataFileNow<T>(assets: AssetFetcher, origin: string, path: string): Promise<T> {
  try {
    return await fetchStamped<T>(assets, origin, path);
  } catch (error) {
    throw error instanceof DataSourceUnavailable ? error : new DataSourceUnavailable(String(error));
  }
}
