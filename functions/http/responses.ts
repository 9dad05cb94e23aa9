import type { QueryIssue } from '../../src/core/api/query.ts';
import type { ErrorBody } from '../../src/core/schemas.ts';

/** Response helpers and the caching policy of spec section 8, in one place. */

export const CACHE = {
  api: 'public, s-maxage=60, stale-while-revalidate=300',
  feed: 'public, s-maxage=300, stale-while-revalidate=600',
  markdown: 'public, s-maxage=60',
  /** The subscribable calendar changes as feeds do; calendar apps poll it hourly (REFRESH-INTERVAL). */
  calendar: 'public, s-maxage=300, stale-while-revalidate=600',
  noStore: 'no-store',
} as const;

export const CONTENT_TYPE = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
  text: 'text/plain; charset=utf-8',
  calendar: 'text/calendar; charset=utf-8',
} as const;

export function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('Content-Type', CONTENT_TYPE.json);
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

export const textResponse = (
  body: string,
  contentType: string,
  cacheControl: string,
  extra: HeadersInit = {},
): Response =>
  new Response(body, { headers: { 'Content-Type': contentType, 'Cache-Control': cacheControl, ...extra } });

const errorResponse = (status: number, body: ErrorBody): Response =>
  jsonResponse(body, { status, headers: { 'Cache-Control': CACHE.noStore } });

export const invalidQuery = (issues: QueryIssue[]): Response => errorResponse(400, { error: 'invalid_query', issues });
export const invalidProvider = (): Response => errorResponse(404, { error: 'invalid_provider' });
export const internalError = (): Response => errorResponse(500, { error: 'internal_error' });
