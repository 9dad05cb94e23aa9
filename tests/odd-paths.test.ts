import { describe, expect, inject, it } from 'vitest';

/**
 * One policy for odd paths (docs/api.md), as workerd serves the build: its asset store would otherwise answer
 * some of these itself (a trailing slash on a file, 301) or hand a prerendered file around the query check.
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
