import type { EdgeDataset, EdgeSummaries } from '../core/dataset.ts';
import { BOARD_PAGE_DATASET_PATH, EDGE_SUMMARIES_PATH } from '../core/dataset.ts';
import { PRERENDERED_FILES } from '../core/prerendered.ts';
import { type ProviderPageData, providerPagePath } from '../core/provider-page.ts';
import type { Provider } from '../core/vocabulary.ts';
import { BASE_URL } from '../server/base-url.ts';
import { buildStampId, buildTimeEvents, buildTimeProvenance } from './dataset.ts';

/**
 * The data the pages' templates are rendered with at build time (src/pages/data/page-templates): the very data
 * files this build writes for the edge, parsed, so that a template's build-time parts are what the edge's own
 * render of the page would show with an empty journal.
 */
async function builtFile<T>(path: string): Promise<T> {
  const body = PRERENDERED_FILES[path];
  if (body === undefined) throw new Error(`no prerendered file is described for ${path} (src/core/prerendered.ts)`);
  const [published, provenance] = await Promise.all([buildTimeEvents(), buildTimeProvenance()]);
  return JSON.parse(body({ published, baseUrl: BASE_URL, buildId: buildStampId(), provenance })) as T;
}

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
