import type { EdgeDataset, EdgeSummaries } from '../core/dataset.ts';
import { DataSourceUnavailable, loadEdgeDataset, loadEdgeSummaries } from './data-source.ts';

/**
 * What a handler may know of its request: the request, the clock, the bindings, the data set and the static
 * assets. The bindings are the worker's `env` (in tests, a stand-in built from real built files).
 */
export interface EdgeContext {
  request: Request;
  url: URL;
  now: Date;
  env: EdgeBindings;
  /** The summaries alone (`/data/summaries.json`): enough for the status, the forecast and the badges. */
  summaries(): Promise<EdgeSummaries>;
  /** The summaries and the newest events (`/data/board.json`, 37 times larger): for lists of events. */
  dataset(): Promise<EdgeDataset>;
  /** A prerendered file, fetched with the request's conditional headers; missing means the data is gone. */
  asset(path: string): Promise<Response>;
}

/**
 * Web Push's bindings and secrets (docs/push.md). Optional: a deployment without them (and the in-process
 * tests) answers the push routes `503 push_unavailable` and serves everything else.
 */
export interface PushBindings {
  PUSH_DB?: D1Database;
  PUSH_QUEUE?: Queue;
  PUSH_WRITE_LIMITER?: RateLimit;
  VAPID_PUBLIC_KEY?: string;
  VAPID_PRIVATE_KEY?: string;
  VAPID_SUBJECT?: string;
  /** `"true"` lets a test's receiver on loopback subscribe; off by default, never on in `npm start`. */
  PUSH_ALLOW_LOOPBACK_RECEIVER?: string;
  /**
   * The WebSub hub's queue (docs/push.md, "Writing a subscription", "Dispatch and delivery"); its rows live in
   * PUSH_DB, its loopback setting is push's.
   */
  WEBSUB_QUEUE?: Queue;
}

/** The part of the worker's `env` the edge handlers use. */
export type EdgeBindings = Pick<Env, 'ASSETS' | 'MCP_RATE_LIMITER' | 'SOURCE_HEALTH'> & PushBindings;

export function createContext(request: Request, env: EdgeBindings, now = new Date()): EdgeContext {
  const url = new URL(request.url);
  return {
    request,
    url,
    now,
    env,
    summaries: () => loadEdgeSummaries(env.ASSETS, url.origin),
    dataset: () => loadEdgeDataset(env.ASSETS, url.origin),
    async asset(path) {
      const response = await env.ASSETS.fetch(new Request(new URL(path, url.origin), { headers: request.headers }));
      if (response.status >= 400)
        throw new DataSourceUnavailable(`the prerendered ${path} answered ${response.status}`);
      return response;
    },
  };
}
