import { judgePath, MAX_REDIRECTED_QUERY_LENGTH } from '../src/core/routes/canonical-path.ts';
import { parseRouteInput } from '../src/core/routes/input.ts';
import { matchRoute, ownsProviderPath } from '../src/core/routes/match.ts';
import { PAGE_METHODS, type RouteSpec } from '../src/core/routes/route.ts';
import { CACHE_POLICIES } from '../src/core/routes/policy.ts';
import type { EdgeRoute, EdgeRouteId, EdgeRouteOf } from '../src/core/routes/table.ts';
import { createContext, type EdgeBindings, type EdgeContext, type WaitUntil } from '../src/server/context.ts';
import { DataSourceUnavailable } from '../src/server/data-source.ts';
import { withValidator } from '../src/server/http/conditional.ts';
import { optionsResponse } from '../src/server/http/cors.ts';
import { declaresTooLargeBody, readRestOfBody } from '../src/server/http/request.ts';
import {
  contentTooLarge,
  internalError,
  invalidProvider,
  invalidQuery,
  methodNotAllowed,
  notFoundIn,
  notAPath,
  pageMethodNotAllowed,
  toCanonicalPath,
  uriTooLong,
} from '../src/server/http/responses.ts';
import { HANDLERS } from './handlers.ts';
import type { EdgeHandlers } from './route-handler.ts';

/**
 * The edge routes as one Web-standard function: a request in, a response out, or `undefined` when no route of
 * the table matches (the worker then hands the request to Astro). An odd form of any path (canonical-path.ts)
 * is answered first, whoever owns the path. Free of Astro and of `cloudflare:` modules,
 * so the tests and the CPU benchmark call it in-process with real built files behind `env.ASSETS`.
 */
export async function answerEdgeRoute(
  request: Request,
  env: EdgeBindings,
  now = new Date(),
  waitUntil?: WaitUntil,
): Promise<Response | undefined> {
  const response = await routeRequest(request, env, now, waitUntil);
  // Also a body the answer refused unread (over a limit, another media type, the rate limit, 405): the
  // connection it came on then carries the next request (readRestOfBody). Not when Astro answers instead.
  if (response !== undefined) await readRestOfBody(request);
  return response;
}

/** Whether the request goes to a route that reads its body with a limit of its own (a push write, MCP). */
function readsItsOwnBody(request: Request): boolean {
  const match = matchRoute(new URL(request.url).pathname);
  const route = match?.routes.find((entry) => (entry.methods as readonly string[]).includes(request.method));
  if (route === undefined) return false;
  return route.requestBody !== undefined || route.id === 'postMcp' || route.aliasOf === 'postMcp';
}

async function routeRequest(
  request: Request,
  env: EdgeBindings,
  now: Date,
  waitUntil: WaitUntil | undefined,
): Promise<Response | undefined> {
  // A body over a megabyte: no route takes one, and it is refused before a byte is read, except where the route
  // reads its own body and refuses a large one in its decided form (push: 400 invalid_request; MCP: JSON-RPC 413).
  if (declaresTooLargeBody(request) && !readsItsOwnBody(request)) return contentTooLarge();
  const url = new URL(request.url);
  const { pathname } = url;
  // Odd paths first, for every path the worker sees (pages too): one 308 to the canonical path, or 404.
  const verdict = judgePath(pathname);
  if (verdict.kind === 'redirect') {
    if (url.search.length > MAX_REDIRECTED_QUERY_LENGTH) return uriTooLong();
    // A route that is itself a redirect answers the odd form at once: one hop to its target, never two.
    if (matchRoute(verdict.pathname)?.route.ok.status !== 308) return toCanonicalPath(verdict.pathname, url.search);
    return answerEdgeRoute(new Request(new URL(`${verdict.pathname}${url.search}`, url), request), env, now, waitUntil);
  }
  if (verdict.kind === 'notFound') return notAPath();
  const match = matchRoute(pathname);
  if (match === undefined) {
    if (ownsProviderPath(pathname)) return invalidProvider();
    // Astro's: pages (the 404 page too) and files, which only read; the table's routes say their own methods.
    return PAGE_METHODS.includes(request.method) ? undefined : pageMethodNotAllowed();
  }
  const { routes, params } = match;
  if (request.method === 'OPTIONS') return optionsResponse(routes);
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  const route = routes.find((entry) => (entry.methods as readonly string[]).includes(method));
  if (route === undefined) return methodNotAllowed(routes);
  const answer = isEdgeRoute(route)
    ? () => answerWithHandler(route.id, route, createContext(request, env, now, waitUntil), params)
    : () => builtFile(request, env);
  const response = await withValidator(request, withRoutePolicy(route, await guarded(route, answer)));
  return request.method === 'HEAD' ? new Response(null, response) : response;
}

/** A route the worker answers itself: an edge entry of the table (the matcher's only source), each with a handler. */
const isEdgeRoute = (route: RouteSpec): route is EdgeRoute => route.served === 'edge';

/**
 * The route's path parameters and query, parsed with its entry's schemas (src/core/routes/input.ts): a refused
 * one is the route's `404` or `400 invalid_query`; the handler gets the parsed values, typed by the entry.
 */
function answerWithHandler<Id extends EdgeRouteId>(
  id: Id,
  route: EdgeRouteOf<Id>,
  context: EdgeContext,
  rawParams: Readonly<Record<string, string>>,
): Promise<Response> | Response {
  const parsed = parseRouteInput(route, rawParams, context.url.searchParams);
  if (!parsed.ok) return parsed.refused === 'query' ? invalidQuery(parsed.issues) : notFoundIn(route);
  const handler: EdgeHandlers[Id] = HANDLERS[id];
  return handler(context, parsed.input);
}

/**
 * A route the build answers with a file (the table's `static` routes): the asset store's file, with the
 * request's conditional headers. Through the worker so that these paths get OPTIONS, `405` with `Allow`, HEAD
 * and the same validators as the rest (the platform's own answers have no `Allow`).
 */
const builtFile = (request: Request, env: EdgeBindings): Promise<Response> =>
  env.ASSETS.fetch(new Request(request.url, { headers: request.headers }));

/** A handler's answer, or `internal_error` (logged, never with details) when it throws. */
async function guarded(route: RouteSpec, answer: () => Promise<Response> | Response): Promise<Response> {
  try {
    return await answer();
  } catch (error) {
    if (error instanceof DataSourceUnavailable) console.warn(error.message);
    else console.error('unexpected error in', route.path, error);
    return internalError();
  }
}

/**
 * A successful answer (a redirect and 304 included) gets its route's caching, also over the asset server's own
 * for a prerendered file; an error keeps its own.
 */
function withRoutePolicy(route: RouteSpec, response: Response): Response {
  if (response.status >= 400) return response;
  const copy = new Response(response.body, response);
  copy.headers.set('Cache-Control', CACHE_POLICIES[route.cache]);
  // A route's own exposed headers (MCP's); the worker adds the common ones to every response (cors.ts).
  if (route.corsHeaders !== undefined)
    copy.headers.set('Access-Control-Expose-Headers', route.corsHeaders.expose.join(', '));
  return copy;
}
