import type { ChannelName } from '../../core/delivery/channels.ts';
import { capIssues } from '../../core/api/issue-cap.ts';
import type { QueryIssue } from '../../core/api/query.ts';
import { allowedMethods, PAGE_METHODS, type RouteSpec } from '../../core/routes/route.ts';
import { CACHE_POLICIES, CONTENT_TYPES } from '../../core/routes/policy.ts';
import type { ErrorBody } from '../../core/schemas.ts';
import { PAGE_SECURITY_HEADERS } from './security-headers.ts';

/** Response helpers of the edge, and its error bodies (spec section 7). */

export function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('Content-Type', CONTENT_TYPES.json);
  return new Response(JSON.stringify(body), { ...init, headers });
}

/**
 * The response with `headers` set, as a copy (a fetched response's headers are immutable): a prerendered file
 * answered with its route's headers, or any response leaving the worker with the common ones.
 */
export function withHeaders(response: Response, headers: Readonly<Record<string, string>>): Response {
  const copy = new Response(response.body, response);
  for (const [name, value] of Object.entries(headers)) copy.headers.set(name, value);
  return copy;
}

export const textResponse = (body: string, contentType: string, extra: HeadersInit = {}): Response =>
  new Response(body, { headers: { 'Content-Type': contentType, ...extra } });

/** Every JSON error body leaves through here: its issues capped (issue-cap.ts), never cached. */
const errorResponse = (status: number, body: ErrorBody, headers: Record<string, string> = {}): Response =>
  jsonResponse(body.issues === undefined ? body : { ...body, issues: capIssues(body.issues) }, {
    status,
    headers: { 'Cache-Control': CACHE_POLICIES.noStore, ...headers },
  });

export const invalidQuery = (issues: QueryIssue[]): Response => errorResponse(400, { error: 'invalid_query', issues });
export const invalidProvider = (): Response => errorResponse(404, { error: 'invalid_provider' });
/** An event id that is unknown, or not an id at all (the same answer: nothing is looked up for a malformed one). */
export const invalidEvent = (): Response => errorResponse(404, { error: 'invalid_event' });
/** A path parameter the route's schema refuses: the route's own `404` (route.ts, `notFound`). */
export const notFoundIn = (route: RouteSpec): Response =>
  errorResponse(404, { error: route.notFound?.error ?? 'invalid_provider' });
export const internalError = (): Response => errorResponse(500, { error: 'internal_error' });

/** The push write path's errors (decisions.md, "Push notifications"). */
export const invalidRequest = (issues: QueryIssue[], status: 400 | 415 = 400): Response =>
  errorResponse(status, { error: 'invalid_request', issues });
/**
 * Push is off or its store cannot be reached. A write says when to try again (decisions.md, "Outbound addresses":
 * a write whose store is unavailable answers 503 with Retry-After); the key, a read, has nothing to retry.
 */
export const pushUnavailable = (retryAfterSeconds?: number): Response =>
  errorResponse(
    503,
    { error: 'push_unavailable' },
    retryAfterSeconds === undefined ? {} : { 'Retry-After': String(retryAfterSeconds) },
  );
/** The chat webhooks' delivery path is off or their store cannot be reached (decisions.md, "Outbound addresses"). */
export const webhooksUnavailable = (retryAfterSeconds: number): Response =>
  errorResponse(503, { error: 'webhooks_unavailable' }, { 'Retry-After': String(retryAfterSeconds) });
/** The WebSub hub is off, or its store or queue cannot be reached (decisions.md, "Outbound addresses"). */
export const webSubUnavailable = (retryAfterSeconds: number): Response =>
  errorResponse(503, { error: 'websub_unavailable' }, { 'Retry-After': String(retryAfterSeconds) });
/** A channel at its total cap (decisions.md, "Delivery that loses nothing"): no new subscriber until some leave. */
export const channelFull = (channel: ChannelName): Response => errorResponse(503, { error: `${channel}_full` });
export const rateLimited = (retryAfterSeconds: number): Response =>
  jsonResponse(
    { error: 'rate_limited' },
    { status: 429, headers: { 'Retry-After': String(retryAfterSeconds), 'Cache-Control': CACHE_POLICIES.noStore } },
  );

/** `405` with the path's `Allow`; a JSON-RPC route says it in a JSON-RPC error, as its clients expect. */
export function methodNotAllowed(routes: readonly RouteSpec[]): Response {
  const route = routes[0]!;
  const headers = { Allow: allowedMethods(routes).join(', '), 'Cache-Control': CACHE_POLICIES.noStore };
  if (route.jsonRpc !== true) return new Response(null, { status: 405, headers });
  const message = `Method not allowed: send JSON-RPC messages with ${route.methods.join(' or ')}.`;
  return jsonResponse({ jsonrpc: '2.0', id: null, error: { code: -32000, message } }, { status: 405, headers });
}

/**
 * `405` on a page (or any path the route table does not list): `Allow: GET, HEAD`, the decided error body, and
 * the pages' security headers, which the worker adds only to HTML (cors.ts), so that this answer in place of a
 * page is held to the page's policy.
 */
export const pageMethodNotAllowed = (): Response =>
  errorResponse(405, { error: 'method_not_allowed' }, { Allow: PAGE_METHODS.join(', '), ...PAGE_SECURITY_HEADERS });

/** An odd form of a path (src/core/routes/canonical-path.ts): one permanent redirect, the query kept. */
export const toCanonicalPath = (pathname: string, search: string): Response =>
  new Response(null, {
    status: 308,
    headers: { Location: `${pathname}${search}`, 'Cache-Control': CACHE_POLICIES.document },
  });

/** An odd path whose query is too long to copy into a redirect (canonical-path.ts): no body, nothing cached. */
export const uriTooLong = (): Response =>
  new Response(null, { status: 414, headers: { 'Cache-Control': CACHE_POLICIES.noStore } });

/** A body larger than any route takes, refused before it is read (request.ts): no body, nothing cached. */
export const contentTooLarge = (): Response =>
  new Response(null, { status: 413, headers: { 'Cache-Control': CACHE_POLICIES.noStore } });

/** A path that cannot name anything (an encoded slash): no body, nothing cached. */
export const notAPath = (): Response =>
  new Response(null, { status: 404, headers: { 'Cache-Control': CACHE_POLICIES.noStore } });
