import { parseQuery, type QueryIssue } from '../api/query.ts';
import type { RouteInput, RouteSpec } from './route.ts';

/**
 * The one place a request's path parameters and query are validated: with the schemas of its table entry, once,
 * before the handler runs (functions/app.ts). A refused path parameter is the route's `404`, a refused query
 * `400 invalid_query` with every issue; a handler only ever sees values its entry's schemas produced.
 */

export type RouteInputResult<R> =
  | { readonly ok: true; readonly input: RouteInput<R> }
  | { readonly ok: false; readonly refused: 'path' }
  | { readonly ok: false; readonly refused: 'query'; readonly issues: QueryIssue[] };

export function parseRouteInput<R extends RouteSpec>(
  route: R,
  rawParams: Readonly<Record<string, string>>,
  search: URLSearchParams,
): RouteInputResult<R> {
  const params: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(route.pathParams ?? {})) {
    const parsed = schema.safeParse(rawParams[name]);
    if (!parsed.success) return { ok: false, refused: 'path' };
    params[name] = parsed.data;
  }
  let query: Record<string, unknown> = {};
  if (route.query !== undefined) {
    const parsed = parseQuery(route.query.schema, search);
    if (!parsed.ok) return { ok: false, refused: 'query', issues: parsed.issues };
    query = parsed.value;
  }
  // Each value is the output of the entry's own schema, which is what RouteInput<R> spells out for the compiler;
  // it cannot follow a loop over the entry's names, so it is told here, in this one place.
  return { ok: true, input: { params, query } as RouteInput<R> };
}
