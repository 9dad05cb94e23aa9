import {
  type DatasetSlice,
  type EdgeDataset,
  type EdgeSummaries,
  RECENT_EVENTS_PER_PROVIDER,
  sliceHolding,
} from '../core/dataset.ts';
import { datasetWithJournal, summariesWithJournal } from '../core/journal/merge.ts';
import type { Event } from '../core/schemas.ts';
import type { DeliveryBindings } from './delivery/bindings.ts';
import type { ReviewBindings } from './review/review-page.ts';
import { DataSourceUnavailable, loadEdgeDataset, loadEdgeSummaries } from './data-source.ts';
import { journalData } from './journal/read.ts';
import type { JournalEntry } from './journal/store.ts';

/**
 * What a handler may know of its request: the request, the clock, the bindings, the data set and the static
 * assets. The bindings are the worker's `env` (in tests, a stand-in built from real built files).
 */
export interface EdgeContext {
  request: Request;
  url: URL;
  now: Date;
  env: EdgeBindings;
  /**
   * The summaries alone (`/data/summaries.json`): enough for the status, the forecast and the badges. Like
   * `dataset()`, with the journal's confirmed events folded in (src/core/journal/merge.ts).
   */
  summaries(): Promise<EdgeSummaries>;
  /**
   * The summaries and the newest events, for lists of events: at least each provider's `newestPerProvider` newest
   * (all 500 when left out, `/data/board.json`, 37 times larger than the summaries), read from the smallest file
   * that holds them (`sliceHolding`: a cold isolate's filtered timeline of 50 parses a fifth of the whole).
   */
  dataset(newestPerProvider?: number): Promise<EdgeDataset>;
  /**
   * The same with each provider's newest events cut to what one kind of output lists (`DATASET_SLICES`: the feeds'
   * 100, the default timeline's 200), read from its own smaller file; the journal folded in at that length, as a
   * build would have cut the list.
   */
  datasetSlice(slice: DatasetSlice): Promise<EdgeDataset>;
  /** The live journal's events (read once per request): what the build does not hold yet. */
  journal(): Promise<readonly Event[]>;
  /** The same read's entries: when each event was confirmed and where its file stands. */
  journalEntries(): Promise<readonly JournalEntry[]>;
  /**
   * Hands work to the invocation's `waitUntil` (the worker's); where there is none (in-process tests), the work runs
   * on unawaited. The work must not throw.
   */
  waitUntil: WaitUntil;
  /** A prerendered file, fetched with the request's conditional headers; missing means the data is gone. */
  asset(path: string): Promise<Response>;
}

/** The invocation's `waitUntil`: work that may finish after the answer has left (the platform keeps it running). */
export type WaitUntil = (promise: Promise<unknown>) => void;

/** The part of the worker's `env` the edge handlers use. */
export type EdgeBindings = Pick<Env, 'ASSETS' | 'MCP_RATE_LIMITER' | 'SOURCE_HEALTH'> &
  DeliveryBindings &
  Pick<ReviewBindings, 'REVIEW_SIGNING_KEY' | 'GITHUB_TOKEN' | 'GITHUB_API_URL'>;

export function createContext(
  request: Request,
  env: EdgeBindings,
  now = new Date(),
  waitUntil: WaitUntil = () => undefined,
): EdgeContext {
  const url = new URL(request.url);
  const journal = journalData(env.ASSETS, env.DB, url.origin);
  return {
    request,
    url,
    now,
    env,
    async summaries() {
      const [summaries, events] = await Promise.all([loadEdgeSummaries(env.ASSETS, url.origin), journal.journal()]);
      return summariesWithJournal(summaries, events);
    },
    async dataset(newestPerProvider = RECENT_EVENTS_PER_PROVIDER) {
      const slice = sliceHolding(newestPerProvider);
      if (slice !== null) return journal.datasetSlice(slice);
      const [dataset, events] = await Promise.all([loadEdgeDataset(env.ASSETS, url.origin), journal.journal()]);
      return datasetWithJournal(dataset, events, RECENT_EVENTS_PER_PROVIDER);
    },
    datasetSlice: journal.datasetSlice,
    journal: journal.journal,
    waitUntil,
    journalEntries: journal.journalEntries,
    async asset(path) {
      const response = await env.ASSETS.fetch(new Request(new URL(path, url.origin), { headers: request.headers }));
      if (response.status >= 400)
        throw new DataSourceUnavailable(`the prerendered ${path} answered ${response.status}`);
      return response;
    },
  };
}
