import { allowedMethods, preflightMethods, type RouteSpec } from '../../core/routes/route.ts';
import { PREFLIGHT_MAX_AGE_SECONDS } from '../../core/routes/policy.ts';
import { withHeaders } from './responses.ts';
import { SAMPLE_DATA_HEADERS } from '../sample-data.ts';
import { PAGE_SECURITY_HEADERS } from './security-headers.ts';

/** CORS: every response may be read from any origin (spec section 1); preflight per spec section 4. */

/** OPTIONS on a route: the spec's preflight where the route table says so, else `204` with `Allow`. */
export function optionsResponse(route: RouteSpec): Response {
  const allow = allowedMethods(route).join(', ');
  if (!route.preflight) return new Response(null, { status: 204, headers: { Allow: allow } });
  const headers: Record<string, string> = {
    Allow: allow,
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': preflightMethods(route).join(', '),
    'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_SECONDS),
  };
  if (route.corsHeaders !== undefined) {
    headers['Access-Control-Allow-Headers'] = route.corsHeaders.allow.join(', ');
    headers['Access-Control-Expose-Headers'] = route.corsHeaders.expose.join(', ');
  }
  return new Response(null, { status: 204, headers });
}

/**
 * The headers every worker response leaves with: CORS `*`, `nosniff` so that no browser reads an API body as
 * anything but its declared type, the page policy on HTML, and `X-Sample-Data: true` while the build serves
 * the fictional sample set. Copies the response (its headers may be immutable).
 */
export function withCommonHeaders(response: Response): Response {
  const isPage = response.headers.get('Content-Type')?.startsWith('text/html') ?? false;
  const copy = withHeaders(response, {
    'Access-Control-Allow-Origin': '*',
    'X-Content-Type-Options': 'nosniff',
    ...(isPage ? PAGE_SECURITY_HEADERS : {}),
    ...SAMPLE_DATA_HEADERS,
  });
  // Nothing here keeps state about a visitor: no response sets a cookie.
  copy.headers.delete('Set-Cookie');
  return copy;
}
