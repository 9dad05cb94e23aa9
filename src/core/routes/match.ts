import type { RouteSpec } from './route.ts';
import { ROUTES } from './table.ts';

/**
 * Path matching over the route table. Written here rather than taken from a router library: the table is the
 * one description of every route, and matching its templates is the dozen lines below (docs/architecture.md
 * records the bundle measurement behind that choice).
 */

export interface RouteMatch {
  /** The path's first entry (its only one, but for a path with an entry per method). */
  route: RouteSpec;
  /** Every entry of the path: the one to answer is the one whose methods hold the request's. */
  routes: readonly RouteSpec[];
  /** The path's named parts, percent-decoded (a malformed escape is kept as it came). */
  params: Record<string, string>;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `/badge/{provider}.svg` → `^/badge/([^/]*)\.svg$`: a name matches within one segment, possibly empty. */
export function templatePattern(template: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const name = /^\{([^}]+)\}$/.exec(part)?.[1];
      if (name === undefined) return escapeRegExp(part);
      names.push(name);
      return '([^/]*)';
    })
    .join('');
  return { pattern: new RegExp(`^${source}$`), names };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The entries of each path, in table order. */
function byPath(routes: readonly RouteSpec[]): Map<string, RouteSpec[]> {
  const paths = new Map<string, RouteSpec[]>();
  for (const route of routes) paths.set(route.path, [...(paths.get(route.path) ?? []), route]);
  return paths;
}

/** A path's entries and a pattern matcher for each; exact paths first so that a template never shadows one. */
export function createMatcher(routes: readonly RouteSpec[]): (pathname: string) => RouteMatch | undefined {
  const paths = [...byPath(routes)];
  const exact = new Map(paths.filter(([path]) => !path.includes('{')));
  const templated = paths
    .filter(([path]) => path.includes('{'))
    .map(([path, entries]) => ({ entries, ...templatePattern(path) }));
  return (pathname) => {
    const entries = exact.get(pathname);
    if (entries !== undefined) return { route: entries[0]!, routes: entries, params: {} };
    for (const candidate of templated) {
      const values = candidate.pattern.exec(pathname);
      if (values !== null) {
        return {
          route: candidate.entries[0]!,
          routes: candidate.entries,
          params: Object.fromEntries(candidate.names.map((name, index) => [name, safeDecode(values[index + 1]!)])),
        };
      }
    }
    return undefined;
  };
}

/** Each path once, with its entries (the OpenAPI paths, `Allow`). */
export const routesByPath = (routes: readonly RouteSpec[]): [string, RouteSpec[]][] => [...byPath(routes)];

export const EDGE_ROUTES: readonly RouteSpec[] = ROUTES.filter((route) => route.served === 'edge');

/** The routes the worker answers itself, before Astro's pages. */
export const matchEdgeRoute = createMatcher(EDGE_ROUTES);

/** Every route of the table: the edge's, and the built files' (served through the worker for OPTIONS, 405, HEAD). */
export const matchRoute = createMatcher(ROUTES);

/**
 * `assets.run_worker_first` in wrangler.jsonc: every path. A static file is otherwise served before the worker
 * with its query ignored, and its odd forms (`/api//timeline`, `/openapi.json/`) get the platform's own answers;
 * through the worker, every edge route validates its query and every path gets one policy for its odd forms
 * (canonical-path.ts). A file that is no edge route still comes from the asset store (Astro's handler falls back
 * to it), so the cost is one worker invocation per file, no CPU to speak of. Astro's hashed `/_astro/*` files
 * were left to the platform until a missing one turned out to be a 404 with their `_headers` rule, cached for a
 * year as immutable: the asset store applies a path's rule whatever the status, and only the worker can tell
 * a 404 (src/server/http/cors.ts). A browser keeps each of them for a year, so few requests pay the invocation.
 */
export const workerFirstPatterns = (): string[] => ['/*'];

/**
 * The fixed prefixes of the edge routes that name a provider in their path (`/badge/`, `/api/status/`): a path
 * under one that matches no route names no provider, and is answered `404 invalid_provider` rather than a page.
 */
const PROVIDER_PATH_PREFIXES = EDGE_ROUTES.filter(
  (route) => route.pathParams !== undefined && 'provider' in route.pathParams,
).map((route) => route.path.slice(0, route.path.indexOf('{')));
export const ownsProviderPath = (pathname: string): boolean =>
  PROVIDER_PATH_PREFIXES.some((prefix) => pathname.startsWith(prefix));
