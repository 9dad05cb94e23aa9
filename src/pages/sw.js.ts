import type { APIRoute } from 'astro';
import { serviceWorker } from '../scripts/service-worker.ts';

export const prerender = true;

/**
 * `/sw.js`, the push service worker, at the site's root so that its scope is the whole site. Its code is one
 * typed function (src/scripts/service-worker.ts) written out as source and called with the worker's scope.
 * Its caching is set in `_headers` (src/integrations/static-headers.ts): revalidated on every check, so a new
 * deploy's worker is picked up at the next visit.
 */
export const GET: APIRoute = () =>
  new Response(`'use strict';\n(${serviceWorker.toString()})(self);\n`, {
    headers: { 'Content-Type': 'text/javascript; charset=utf-8' },
  });
