import { describe, expect, inject, it } from 'vitest';

/**
 * HTTP as its clients read it, as workerd serves the build (its asset store would otherwise answer static files
 * itself): one policy for odd paths (docs/api.md), validators on every GET that carries data, CORS headers a
 * browser script can use, `405` with `Allow` and OPTIONS on every route of the table.
 */

const baseUrl = inject('baseUrl');
const get = (path: string, init?: RequestInit) => fetch(`${baseUrl}${path}`, { redirect: 'manual', ...init });

describe('odd paths', () => {
  it.each([
    ['/api//timeline?provider=x', '/api/timeline?provider=x'],
    ['/api/timeline%2Ecsv?limit=0', '/api/timeline.csv?limit=0'],
    ['/api/status/', '/api/status'],
    ['/%61pi/status', '/api/status'],
    ['//api/status', '/api/status'],
    ['/zh/', '/zh'],
    ['/about/', '/about'],
    ['/openapi.json/', '/openapi.json'],
    ['/data/board.json/', '/data/board.json'],
    ['/data//events/index.json', '/data/events/index.json'],
    ['/llms.txt/?a=1', '/llms.txt?a=1'],
    ['/feed%2Exml?provider=provider_a', '/feed.xml?provider=provider_a'],
    // An alias that redirects in turn: straight to its target (one redirect at most for any typed URL).
    ['/api/feed/?provider=provider_a', '/feed.xml?provider=provider_a'],
    ['/zh/index.html', '/zh'],
  ])('%s is one 308 to %s', async (path, location) => {
    const response = await get(path);
    expect(response.status).toBe(308);
    expect(new URL(response.headers.get('location')!, baseUrl).href).toBe(`${baseUrl}${location}`);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const landed = await get(location);
    expect(landed.status).not.toBe(308);
    expect(landed.status).not.toBe(301);
  });

  it.each(['/api//timeline?provider=x', '/api/timeline%2Ecsv?limit=0', '/feed%2Exml?provider=nobody'])(
    '%s never answers 200 with unfiltered data: its canonical path validates the query (400)',
    async (path) => {
      const response = await fetch(`${baseUrl}${path}`);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_query' });
    },
  );

  it.each(['/api%2Fstatus', '/api/status%2Fprovider_a', '/data%2Fboard.json', '/api%5Ctimeline'])(
    '%s (an encoded slash or backslash) is 404',
    async (path) => {
      const response = await get(path);
      expect(response.status).toBe(404);
    },
  );

  it.each([
    ['/openapi.json', /^application\/json/],
    ['/llms.txt', /^text\/plain/],
    ['/data/board.json', /^application\/json/],
    ['/favicon.svg', /^image\/svg\+xml/],
    ['/about', /^text\/html/],
    ['/zh/api', /^text\/html/],
    ['/calendar/provider_a.ics', /^text\/calendar/],
  ])('the canonical %s is still the file, through the worker', async (path, type) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(type);
  });
});

describe('conditional requests', () => {
  it.each([
    '/api/status',
    '/api/timeline?provider=provider_a&limit=5',
    '/api/timeline',
    '/api/timeline.csv?provider=provider_b',
    '/feed.xml?provider=provider_a',
    '/feed.atom',
    '/calendar.ics?provider=provider_c',
    '/index.md',
    '/openapi.json',
    '/data/board.json',
    '/data/events/index.json',
    '/.well-known/mcp.json',
  ])('%s has an ETag and answers 304 to it and to If-None-Match: *', async (path) => {
    const first = await get(path);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^(W\/)?"[^"]+"$/);
    for (const validator of [etag!, '*']) {
      const again = await get(path, { headers: { 'If-None-Match': validator } });
      expect(again.status, `${path} with ${validator}`).toBe(304);
      expect(again.headers.get('access-control-allow-origin')).toBe('*');
    }
  });
});

describe('CORS for browser scripts', () => {
  it.each(['/api/status', '/api/timeline.csv?provider=provider_a', '/openapi.json', '/mcp'])(
    'the actual response to %s exposes ETag, Retry-After and Content-Disposition',
    async (path) => {
      const response = await get(path, { headers: { Origin: 'https://example.org' } });
      const exposed = (response.headers.get('access-control-expose-headers') ?? '').split(/,\s*/);
      expect(exposed).toEqual(expect.arrayContaining(['ETag', 'Retry-After', 'Content-Disposition']));
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
    },
  );

  it.each(['/api/status', '/api/timeline', '/feed.xml', '/api/ics', '/mcp'])(
    'a preflight of %s allows If-None-Match and Authorization',
    async (path) => {
      const response = await get(path, {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://example.org',
          'Access-Control-Request-Method': path === '/mcp' ? 'POST' : 'GET',
          'Access-Control-Request-Headers': 'if-none-match, authorization',
        },
      });
      expect(response.status).toBe(204);
      const allowed = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/,\s*/);
      expect(allowed).toEqual(expect.arrayContaining(['if-none-match', 'authorization']));
    },
  );
});

describe('405 with Allow, and OPTIONS, on every route of the table', () => {
  it.each([
    ['/openapi.json', 'GET, HEAD, OPTIONS'],
    ['/llms.txt', 'GET, HEAD, OPTIONS'],
    ['/data/board.json', 'GET, HEAD, OPTIONS'],
    ['/data/events/index.json', 'GET, HEAD, OPTIONS'],
    ['/calendar/provider_a.ics', 'GET, HEAD, OPTIONS'],
    ['/.well-known/mcp.json', 'GET, HEAD, OPTIONS'],
    ['/api/status', 'GET, HEAD, OPTIONS'],
    ['/mcp', 'POST, OPTIONS'],
  ])('%s: DELETE is 405 with Allow %s; OPTIONS is 204', async (path, allow) => {
    for (const method of ['DELETE', 'PUT', 'POST'].filter((candidate) => !allow.includes(candidate))) {
      const refused = await get(path, { method });
      expect(refused.status, `${method} ${path}`).toBe(405);
      expect(refused.headers.get('allow')).toBe(allow);
    }
    const options = await get(path, { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe(allow);
  });
});
