/**
 * One policy for odd paths, everywhere the worker answers (docs/api.md "Odd paths"): a path that names a
 * resource in a roundabout way is redirected once, `308`, to its canonical form with the query kept; a path that
 * cannot name one is `404`. Checked before any routing, so no odd form of a path reaches a built file around
 * the query validation of its route (`/api//timeline?provider=x`, `/api/timeline%2Ecsv?limit=0`).
 *
 * Equivalent forms (RFC 3986 6.2.2, and what the router would otherwise have to guess):
 * - percent-encoded unreserved characters (`/%61pi/status`, `timeline%2Ecsv`) are the characters;
 * - repeated slashes are one slash; a trailing slash is dropped (the site's URLs have none, `/` aside);
 * - a page's built file name is the page (`/about.html` → `/about`, `/zh/index.html` → `/zh`): the site links
 *   none of them, and the asset store would otherwise answer the same page under a second URL.
 * A verdict's path is itself canonical, so a typed URL is redirected once at most (functions/app.ts also lets a
 * route that is itself a redirect, `/api/feed`, answer an odd form of its path directly).
 * Dot segments (`/api/./status`, `%2e%2e`) never get here: the URL parser resolves them.
 * Not a path: an encoded slash or backslash (`%2F`, `%5C`) or a NUL inside a segment, which a file store
 * would read as a separator.
 */

/**
 * The longest query (with its `?`) a redirect of an odd path carries over. Every query the routes take is under
 * a hundred characters; a longer one would only be copied into a `Location` that caches keep for an hour (a
 * 20 KB query made a 20 KB header). Over it the request is `414 URI Too Long` rather than a redirect without the
 * query, which would silently change what was asked for.
 */
export const MAX_REDIRECTED_QUERY_LENGTH = 2048;

export type PathVerdict = { kind: 'canonical' } | { kind: 'redirect'; pathname: string } | { kind: 'notFound' };

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
const NOT_A_PATH = /%2f|%5c|%00/i;

export function judgePath(pathname: string): PathVerdict {
  if (NOT_A_PATH.test(pathname)) return { kind: 'notFound' };
  const decoded = pathname.replace(/%([0-9A-Fa-f]{2})/g, (percentEscape, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : percentEscape;
  });
  const collapsed = decoded.replace(/\/{2,}/g, '/');
  const withoutSlash = collapsed.length > 1 && collapsed.endsWith('/') ? collapsed.slice(0, -1) : collapsed;
  const canonical = withoutPageFileName(withoutSlash);
  if (canonical.split('/').some((segment) => segment === '.' || segment === '..')) return { kind: 'notFound' };
  return canonical === pathname ? { kind: 'canonical' } : { kind: 'redirect', pathname: canonical };
}

/** `/about.html` → `/about`, `/index.html` → `/`, `/zh/index.html` and `/zh.html` → `/zh`. */
function withoutPageFileName(pathname: string): string {
  if (!pathname.endsWith('.html')) return pathname;
  const page = pathname.slice(0, -'.html'.length);
  if (page === '/index') return '/';
  return page.endsWith('/index') ? page.slice(0, -'/index'.length) : page;
}
