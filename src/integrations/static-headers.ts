import { appendFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { PAGE_SECURITY_HEADERS } from '../server/http/security-headers.ts';
import { CACHE_POLICIES, CONTENT_TYPES } from '../core/routes/policy.ts';
import type { RouteSpec } from '../core/routes/route.ts';
import { ROUTES } from '../core/routes/table.ts';
import { SAMPLE_DATA_HEADER } from '../core/sample-data.ts';

/**
 * Writes the `_headers` rules for the files the platform serves without the worker (the adapter writes the
 * file first, with its rule for /_astro/*): CORS and the security headers on everything, and each static
 * route's caching from the route table (a template's names become `*`); a plain-text file also gets its
 * media type, which the asset store cannot know from `.txt` alone with a charset.
 */
const DATA_FOLDER = '/data/';
export const SERVICE_WORKER_PATH = '/sw.js';
export const SERVICE_WORKER_CACHE = 'no-cache';

const routeRule = (route: RouteSpec): Record<string, string> => ({
  ...('text' in route.ok.content ? { 'Content-Type': CONTENT_TYPES.text } : {}),
  'Cache-Control': CACHE_POLICIES[route.cache],
});

const RULES: Record<string, Record<string, string>> = {
  '/*': { 'Access-Control-Allow-Origin': '*', ...PAGE_SECURITY_HEADERS },
  // Rules that match the same file add their values up, so the data files have the one rule below.
  ...Object.fromEntries(
    ROUTES.filter((route) => route.served === 'static' && !route.path.startsWith(DATA_FOLDER)).map((route) => [
      route.path.replace(/\{.*$/, '*'),
      routeRule(route),
    ]),
  ),
  // Every built data file, listed as a route or not (the provider pages' data, the per-provider feeds).
  [`${DATA_FOLDER}*`]: { 'Cache-Control': CACHE_POLICIES.data },
  // The push service worker: revalidated at every update check, so a new deploy's worker is picked up soon.
  [SERVICE_WORKER_PATH]: { 'Cache-Control': SERVICE_WORKER_CACHE },
};

export interface StaticHeadersOptions {
  /** Whether the build serves the sample set: then every file says so (`X-Sample-Data: true`). */
  servesSampleData: () => boolean;
}

export const renderHeadersFile = (sampleData: boolean): string =>
  Object.entries(sampleData ? { ...RULES, '/*': { ...RULES['/*'], [SAMPLE_DATA_HEADER]: 'true' } } : RULES)
    .map(
      ([path, headers]) =>
        `${path}\n${Object.entries(headers)
          .map(([name, value]) => `  ${name}: ${value}`)
          .join('\n')}\n`,
    )
    .join('\n');

export function staticHeaders({ servesSampleData }: StaticHeadersOptions): AstroIntegration {
  let clientDir: URL | undefined;
  return {
    name: 'departures-board:static-headers',
    hooks: {
      'astro:config:done': ({ config }) => {
        clientDir = config.build.client;
      },
      'astro:build:done': async () => {
        if (clientDir === undefined) return;
        await appendFile(fileURLToPath(new URL('_headers', clientDir)), `\n${renderHeadersFile(servesSampleData())}`);
      },
    },
  };
}
