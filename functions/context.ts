import { handle } from '@astrojs/cloudflare/handler';
import type { EdgeDataset } from '../src/core/dataset.ts';
import { DataSourceUnavailable, loadEdgeDataset } from './data-source.ts';

/** What a handler may know of its request: the request, the clock, the data set and the static assets. */
export interface EdgeContext {
  request: Request;
  url: URL;
  now: Date;
  dataset(): Promise<EdgeDataset>;
  /** A prerendered file, fetched with the request's conditional headers; missing means the data is gone. */
  asset(path: string): Promise<Response>;
}

export function createContext(request: Request, env: Env, executionContext: ExecutionContext): EdgeContext {
  const url = new URL(request.url);
  return {
    request,
    url,
    now: new Date(),
    dataset: () => loadEdgeDataset(env.ASSETS, url.origin),
    async asset(path) {
      const assetRequest = new Request(new URL(path, url.origin), { headers: request.headers });
      // In `astro dev` the ASSETS binding holds only public/, so the prerendered file is not there: Astro's
      // handler renders its route on demand instead (asking the dev server over HTTP would come back here).
      const response = import.meta.env.DEV
        ? await handle(assetRequest, env, executionContext)
        : await env.ASSETS.fetch(assetRequest);
      if (response.status >= 400)
        throw new DataSourceUnavailable(`the prerendered ${path} answered ${response.status}`);
      return response;
    },
  };
}
