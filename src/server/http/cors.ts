import { allowedMethods, preflightMethods, type RouteSpec } from '../../core/routes/route.ts';
import { CACHE_POLICIES, PREFLIGHT_MAX_AGE_SECONDS } from '../../core/routes/policy.ts';
import { withHeaders } from './responses.ts';
import { SAMPLE_DATA_HEADERS } from '../sample-data.ts';
import { PAGE_SECURITY_HEADERS } from './security-headers.ts';

/** CORS: every response may be read from any origin (spec section 1); preflight per spec section 4. */

/**
 * What a browser script may read or send beyond the CORS-safelisted headers, on every route: the validator,
 * the rate limit's wait, a CSV's or calendar's file name, the sample-data marker; and it may send a validator
 * back and credentials (which are ignored: the API is open). A route adds its own (MCP's session headers).
 */
export const EXPOSED_HEADERS = ['ETag', 'Retry-After', 'Content-Disposition', 'X-Sample-Data'] as const;
export const ALLOWED_REQUEST_HEADERS = ['If-None-Match', 'Authorization'] as const;
const union = (...lists: readonly (readonly string[])[]) => [...new Set(lists.flat())].join(', ');

/** OPTIONS on a path: the spec's preflight where the route table says so, else `204` with `Allow`. */
export function optionsResponse(routes: readonly RouteSpec[]): Response {
  const route = routes[0]!;
  const allow = allowedMethods(routes).join(', ');
  if (!route.preflight) return new Response(null, { status: 204, headers: { Allow: allow } });
  const headers: Record<string, string> = {
    Allow: allow,
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': preflightMethods(routes).join(', '),
    'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_SECONDS),
  };
  headers['Access-Control-Allow-Headers'] = union(
    routes.flatMap((entry) => entry.corsHeaders?.allow ?? []),
    ALLOWED_REQUEST_HEADERS,
  );
  headers['Access-Control-Expose-Headers'] = union(
    EXPOSED_HEADERS,
    routes.flatMap((entry) => entry.corsHeaders?.expose ?? []),
  );
  return new Response(null, { status: 204, headers });
}

/**
 * What every page says besides its body: that it is UTF-8 (Astro answers a bare `text/html`, which leaves the
 * encoding to the `<meta>` tag and a browser's guess) and how long it may be kept, where the page said nothing:
 * an error page not at all, any other as the board pages (src/server/page-data.ts).
 */
function pageBasics(response: Response): Record<string, string> {
  const basics: Record<string, string> = {};
  if (!/charset=/i.test(response.headers.get('Content-Type') ?? ''))
    basics['Content-Type'] = 'text/html; charset=utf-8';
  if (!response.headers.has('Cache-Control'))
    basics['Cache-Control'] = response.status >= 400 ? CACHE_POLICIES.noStore : CACHE_POLICIES.api;
  return basics;
}

/**
 * An error is never kept as immutable. The asset store answers a missing `/_astro/*` file with a 404 that carries
 * the `_headers` rule of the path asked for: Astro's hashed assets' `public, max-age=31536000, immutable`, so a
 * 404 was cached for a year, also after a deploy that brings the file. `_headers` cannot tell a 404 from a 200,
 * so the worker runs first for those paths too (match.ts, `workerFirstPatterns`) and rewrites it here.
 */
const errorCaching = (response: Response): Record<string, string> =>
  response.status >= 400 && /immutable/i.test(response.headers.get('Cache-Control') ?? '')
    ? { 'Cache-Control': CACHE_POLICIES.noStore }
    : {};

/**
 * The page policy, where the page set none of its own: the review page sends a stricter `Referrer-Policy` and a
 * Content-Security-Policy that allows its one inline style by hash (src/core/review/page.ts).
 */
const pageSecurityHeaders = (response: Response): Record<string, string> =>
  Object.fromEntries(Object.entries(PAGE_SECURITY_HEADERS).filter(([name]) => !response.headers.has(name)));

/**
 * The headers every worker response leaves with: CORS `*`, `nosniff` so that no browser reads an API body as
 * anything but its declared type, the page policy on HTML, and `X-Sample-Data: true` while the build serves
 * the fictional sample set. Copies the response (its headers may be immutable).
 */
export function withCommonHeaders(response: Response): Response {
  const isPage = response.headers.get('Content-Type')?.startsWith('text/html') ?? false;
  const copy = withHeaders(response, {
    ...(isPage ? pageBasics(response) : {}),
    ...errorCaching(response),
    'Access-Control-Allow-Origin': '*',
    // Browsers read Expose-Headers on the actual response, not on the preflight.
    'Access-Control-Expose-Headers': union(
      EXPOSED_HEADERS,
      response.headers.get('Access-Control-Expose-Headers')?.split(/,\s*/) ?? [],
    ),
    'X-Content-Type-Options': 'nosniff',
    ...(isPage ? pageSecurityHeaders(response) : {}),
    ...SAMPLE_DATA_HEADERS,
  });
  // Nothing here keeps state about a visitor: no response sets a cookie.
  copy.headers.delete('Set-Cookie');
  return copy;
}
