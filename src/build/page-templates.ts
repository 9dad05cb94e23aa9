import type { EdgeDataset, EdgeSummaries } from '../core/dataset.ts';
import { BOARD_PAGE_DATASET_PATH, EDGE_SUMMARIES_PATH } from '../core/dataset.ts';
import { type ProviderPageData, providerPagePath } from '../core/provider-page.ts';
import type { Provider } from '../core/vocabulary.ts';
import { prerenderedBody } from './prerendered.ts';

/**
 * The data the pages' templates are rendered with at build time (src/pages/data/page-templates): the very data
 * files this build writes for the edge, parsed, so that a template's build-time parts are what the edge's own
 * render of the page would show with an empty journal.
 */
const builtFile = async <T>(path: string): Promise<T> => JSON.parse(await prerenderedBody(path)) as T;

let boardData: Promise<EdgeDataset> | undefined;
let summaries: Promise<EdgeSummaries> | undefined;
const providerPages = new Map<Provider, Promise<ProviderPageData>>();

/** The board page's data set, as `/data/board-page.json` holds it. */
export const templateBoardData = (): Promise<EdgeDataset> =>
  (boardData ??= builtFile<EdgeDataset>(BOARD_PAGE_DATASET_PATH));

/** Every provider's summary, as `/data/summaries.json` holds them. */
export const templateSummaries = (): Promise<EdgeSummaries> =>
  (summaries ??= builtFile<{ summaries: EdgeSummaries }>(EDGE_SUMMARIES_PATH).then((file) => file.summaries));

/** A provider page's data, as `/data/providers/<provider>.json` holds it. */
export function templateProviderPage(provider: Provider): Promise<ProviderPageData> {
  let page = providerPages.get(provider);
  if (page === undefined) {
    page = builtFile<ProviderPageData>(providerPagePath(provider));
    providerPages.set(provider, page);
  }
  return page;
}
