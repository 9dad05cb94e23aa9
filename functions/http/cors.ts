import { withHeaders } from './responses.ts';
import { PAGE_SECURITY_HEADERS } from './security-headers.ts';
import { SAMPLE_DATA_HEADERS } from '../../src/server/sample-data.ts';

/** CORS: every response may be read from any origin (spec section 1); preflight per spec section 4. */

export const PREFLIGHT_PATHS: ReadonlySet<string> = new Set([
  '/api/status',
  '/api/timeline',
  '/api/timeline.csv',
  '/feed.xml',
  '/api/ics',
]);

export const preflightResponse = (): Response =>
  new Response(null, {
    status: 204,
    headers: {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Methods': 'GET, OPTIONS',
      'Access-Control-Max-Age': '86400',
    },
  });

/**
 * The headers every worker response leaves with: CORS `*`, `X-Sample-Data` for sample data, `nosniff` so that no browser reads an API body as
 * anything but its declared type, and the page policy on HTML. Copies the response (its headers may be immutable).
 */
export function withCommonHeaders(response: Response): Response {
  const isPage = response.headers.get('Content-Type')?.startsWith('text/html') ?? false;
  const copy = withHeaders(response, {
    'Access-Control-Allow-Origin': '*',
    'X-Content-Type-Options': 'nosniff',
    ...(isPage ? PAGE_SECURITY_HEADERS : {}),
    // `X-Sample-Data: true` while the build serves the fictional sample set (empty otherwise).
    ...SAMPLE_DATA_HEADERS,
  });
  // Nothing here keeps state about a visitor: no response sets a cookie.
  copy.headers.delete('Set-Cookie');
  return copy;
}
