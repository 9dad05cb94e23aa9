import type { EdgeDataset, EdgeSummaries } from '../core/dataset.ts';
import type { DeliveryBindings } from './delivery/bindings.ts';
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

/** The part of the worker's `env` the edge handlers use. */
export type EdgeBindings = Pick<Env, 'ASSETS' | 'MCP_RATE_LIMITER' | 'SOURCE_HEALTH'> & DeliveryBindings;

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
