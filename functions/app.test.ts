import ICAL from 'ical.js';
import Papa from 'papaparse';
import Parser from 'rss-parser';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fixtureFiles } from '../scripts/lib/built-files.ts';
import { edgeApp } from '../scripts/lib/edge-app.ts';
import { deriveBoard } from '../src/core/board.ts';
import { EDGE_DATASET_PATH, EDGE_SUMMARIES_PATH } from '../src/core/dataset.ts';
import { makeEvent, NOW, resetsWithGaps } from '../src/core/test-events.ts';
import { forgetLoadedData } from '../src/server/data-source.ts';

/**
 * Every edge route in-process (no build, no workerd): the worker's own route function over the files a build
 * of a small fixture would hold. Expected values come from the whole-history rules and third-party parsers,
 * not from the summaries and renderers the handlers use.
 */

const LATER = new Date(NOW.getTime() + 3_600_000);
/** The edge's data: the data set, and its summaries' own file (what the status reads). */
const EDGE_DATA_FILES = [EDGE_DATASET_PATH, EDGE_SUMMARIES_PATH];
const EVENTS = [
  ...resetsWithGaps([7, 8, 6, 9], 2).map((event) => ({ ...event, provider: 'provider_a' as const })),
  makeEvent({
    provider: 'provider_b',
    kind: 'boost',
    announcedAt: '2026-06-10T08:00:00.000Z',
    summary: 'Limits doubled this week, a & b <c>.',
  }),
  makeEvent({ provider: 'provider_c', kind: 'tease', announcedAt: '2026-06-14T08:00:00.000Z' }),
  makeEvent({ provider: 'provider_a', kind: 'reset', announcedAt: '2026-06-13T08:00:00.000Z', verified: false }),
];
const app = () => edgeApp(fixtureFiles(EVENTS, NOW));
const get = (path: string, init?: RequestInit) =>
  app()
    .request(path, init, LATER)
    .then((response) => response!);

beforeEach(() => forgetLoadedData());

describe('the route table at work', () => {
  it.each([
    ['/api/status', 'GET, HEAD, OPTIONS'],
    ['/api/timeline.csv', 'GET, HEAD, OPTIONS'],
    ['/badge/provider_a.svg', 'GET, HEAD, OPTIONS'],
    ['/mcp', 'POST, OPTIONS'],
  ])('another method on %s is 405 with Allow: %s', async (path, allow) => {
    const response = await get(path, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allow);
  });

  it('GET /mcp is 405 with a JSON-RPC error (decisions: GET /mcp → 405)', async () => {
    const response = await get('/mcp');
    expect(response.status).toBe(405);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
  });

  it.each(['/api/status', '/api/timeline', '/api/timeline.csv', '/feed.xml', '/api/ics'])(
    'OPTIONS %s is the spec’s preflight',
    async (path) => {
      const response = await get(path, { method: 'OPTIONS' });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS');
      expect(response.headers.get('access-control-max-age')).toBe('86400');
    },
  );

  it('OPTIONS on a route without a preflight still answers, with Allow', async () => {
    const response = await get('/feed.atom', { method: 'OPTIONS' });
    expect(response.status).toBe(204);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(response.headers.get('access-control-allow-methods')).toBeNull();
  });

  it('HEAD answers as GET, without a body', async () => {
    const [head, full] = [await get('/api/status', { method: 'HEAD' }), await get('/api/status')];
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(full.headers.get('etag'));
    expect(await head.text()).toBe('');
  });

  it.each([
    ['/api/status', 'public, s-maxage=60, stale-while-revalidate=300'],
    ['/api/timeline?provider=provider_a', 'public, s-maxage=60, stale-while-revalidate=300'],
    ['/api/timeline', 'public, s-maxage=60, stale-while-revalidate=300'],
    ['/feed.xml', 'public, s-maxage=300, stale-while-revalidate=600'],
    ['/index.md', 'public, s-maxage=60'],
    ['/api/ics?provider=provider_a&resetAt=2026-06-15T18:30:00%2B08:00', 'no-store'],
  ])('%s is cached as spec section 8 says: %s', async (path, cacheControl) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe(cacheControl);
  });

  it('a path under a provider route that names no provider is 404 invalid_provider', async () => {
    for (const path of ['/api/status/a/b', '/badge/provider_z.svg', '/badge/provider_a.png']) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(await response.json()).toEqual({ error: 'invalid_provider' });
    }
  });

  it('hands a path it has no route for to the pages', async () => {
    expect(await app().request('/tracker')).toBeUndefined();
  });

  it('answers 500 internal_error, JSON, when the data set is missing', async () => {
    const files = new Map(fixtureFiles(EVENTS, NOW));
    for (const dataFile of EDGE_DATA_FILES) files.delete(dataFile);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const response = await edgeApp(files).request('/api/status', undefined, LATER);
    expect(response!.status).toBe(500);
    expect(await response!.json()).toEqual({ error: 'internal_error' });
    warn.mockRestore();
  });

  it('refuses a data set without the build’s stamp (500), never reading it as data', async () => {
    const files = new Map(fixtureFiles(EVENTS, NOW));
    for (const dataFile of EDGE_DATA_FILES) {
      const unstamped = JSON.parse(new TextDecoder().decode(files.get(dataFile))) as Record<string, unknown>;
      delete unstamped['stamp'];
      files.set(dataFile, new TextEncoder().encode(JSON.stringify(unstamped)));
    }
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect((await edgeApp(files).request('/api/status', undefined, LATER))!.status).toBe(500);
    warn.mockRestore();
  });
});

describe('odd paths: one 308 to the canonical path (query kept), or 404, before any route', () => {
  it.each([
    ['/api//timeline?provider=x', '/api/timeline?provider=x'],
    ['/api/timeline%2Ecsv?limit=0', '/api/timeline.csv?limit=0'],
    ['/api/status/', '/api/status'],
    ['/%61pi/status', '/api/status'],
    ['http://localhost:4321//feed.xml?provider=provider_a', '/feed.xml?provider=provider_a'],
    ['/zh/', '/zh'],
    ['/about/', '/about'],
    ['/data//board.json', '/data/board.json'],
  ])('%s → 308 %s, and what it lands on answers by its own rules', async (path, location) => {
    const response = await get(path);
    expect(response.status).toBe(308);
    expect(response.headers.get('location')).toBe(location);
    const landed = await app().request(location, undefined, LATER);
    expect(landed?.status ?? 'handed to Astro').not.toBe(308);
  });

  it.each(['/api//timeline?provider=x', '/api/timeline%2Ecsv?limit=0'])(
    'no odd form reaches the built file around the query validation: %s ends in 400',
    async (path) => {
      const location = (await get(path)).headers.get('location')!;
      expect((await get(location)).status).toBe(400);
    },
  );

  it.each([
    // 2049 characters with the `?`: one over.
    ['/api//timeline', `?provider=${'a'.repeat(2039)}`],
    ['/zh/', `?q=${'a'.repeat(20 * 1024)}`],
    ['/api/feed/', `?provider=${'a'.repeat(3000)}`],
  ])('%s with a query over 2048 characters is 414, nothing copied or cached', async (path, query) => {
    const response = await get(`${path}${query}`);
    expect(response.status).toBe(414);
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('keeps a query of exactly 2048 characters in the redirect', async () => {
    const query = `?provider=${'a'.repeat(2038)}`;
    const response = await get(`/api//timeline${query}`);
    expect(response.status).toBe(308);
    expect(response.headers.get('location')).toBe(`/api/timeline${query}`);
  });

  it.each(['/api%2Fstatus', '/api/status%2Fprovider_a', '/api%5Ctimeline', '/data%2Fboard.json'])(
    '%s (an encoded slash) is 404',
    async (path) => {
      const response = await get(path);
      expect(response.status).toBe(404);
      expect(response.headers.get('cache-control')).toBe('no-store');
    },
  );
});

describe('the handlers', () => {
  it('/api/status is the board by the whole-history rules, with a weak ETag and 304', async () => {
    const response = await get('/api/status');
    const body = (await response.json()) as { updatedAt: string };
    expect(body).toEqual(deriveBoard(EVENTS, LATER));
    const etag = response.headers.get('etag')!;
    expect((await get('/api/status', { headers: { 'If-None-Match': etag } })).status).toBe(304);
  });

  it('/api/status/<provider> is that provider’s entry', async () => {
    expect(await (await get('/api/status/provider_c')).json()).toEqual(deriveBoard(EVENTS, LATER).providers[2]);
  });

  it('/api/timeline filters by provider and limit, drafts left out', async () => {
    const body = (await (await get('/api/timeline?provider=provider_a&limit=3')).json()) as {
      events: { id: string; verified: boolean }[];
    };
    const expected = EVENTS.filter((event) => event.provider === 'provider_a' && event.verified)
      .sort((a, b) => b.announcedAt.localeCompare(a.announcedAt))
      .slice(0, 3)
      .map((event) => event.id);
    expect(body.events.map((event) => event.id)).toEqual(expected);
  });

  it('/api/timeline refuses a bad query with invalid_query', async () => {
    const response = await get('/api/timeline?limit=0');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_query', issues: [{ path: ['limit'] }] });
  });

  it('/api/timeline.csv is CSV that papaparse reads, one row per published event', async () => {
    const response = await get('/api/timeline.csv?provider=provider_b');
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const rows = Papa.parse<Record<string, string>>(await response.text(), { header: true, skipEmptyLines: true }).data;
    expect(rows.map((row) => row['summary'])).toEqual(['Limits doubled this week, a & b <c>.']);
  });

  it('/feed.xml (prerendered) and /feed.xml?provider= (at the edge) are RSS a feed parser reads', async () => {
    const parser = new Parser();
    const all = await parser.parseString(await (await get('/feed.xml')).text());
    expect(all.items).toHaveLength(EVENTS.filter((event) => event.verified).length);
    const one = await parser.parseString(await (await get('/feed.xml?provider=provider_b')).text());
    expect(one.items.map((item) => item.title)).toEqual(['Provider B · Limit boost · 10 Jun 2026']);
  });

  it('/index.md and /zh/index.md are the board in Markdown', async () => {
    expect(await (await get('/index.md')).text()).toContain('**Provider C** (`provider_c`): Teased (`tease`)');
    expect(await (await get('/zh/index.md')).text()).toContain('**供应商 C**');
  });

  it("each other language's /<prefix>/index.md is the board in Markdown in that language, from the edge", async () => {
    const japanese = await get('/ja/index.md');
    expect(japanese.status).toBe(200);
    expect(japanese.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(await japanese.text()).toContain('**プロバイダー C**');
    expect(await (await get('/pt-br/index.md')).text()).toContain('**Provedor C**');
    expect(await (await get('/de/index.md')).text()).toContain('**Anbieter C**');
  });

  it('/api/ics and /calendar.ics are calendars ical.js reads', async () => {
    const windows = ICAL.Component.fromString(
      await (await get('/api/ics?provider=provider_a&resetAt=2026-06-15T18:30:00%2B08:00')).text(),
    );
    expect(windows.getAllSubcomponents('vevent').length).toBeGreaterThan(0);
    const announcements = ICAL.Component.fromString(await (await get('/calendar.ics?provider=provider_a')).text());
    const summaries = announcements
      .getAllSubcomponents('vevent')
      .map((event) => String(event.getFirstPropertyValue('summary')));
    expect(summaries.filter((summary) => summary.startsWith('Provider A · Reset'))).toHaveLength(5);
  });

  it('/api/feed redirects to /feed.xml keeping the provider', async () => {
    const response = await get('/api/feed?provider=provider_c&x=1');
    expect(response.status).toBe(308);
    expect(response.headers.get('location')).toBe('/feed.xml?provider=provider_c');
  });

  it('/badge/<provider>.svg and .json carry the status word', async () => {
    expect(await (await get('/badge/provider_c.svg')).text()).toContain('teased');
    expect(await (await get('/badge/provider_a.json')).json()).toMatchObject({ schemaVersion: 1, label: 'Provider A' });
  });

  it('POST /mcp answers JSON-RPC tools/call get_status with the board', async () => {
    const response = await get('/mcp', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_status', arguments: {} },
      }),
    });
    const body = (await response.json()) as { result: { structuredContent: unknown } };
    // Tool results carry numbers to three decimals (functions/mcp/server.ts).
    const toThreeDecimals = (value: unknown): unknown =>
      typeof value === 'number'
        ? expect.closeTo(value, 3)
        : Array.isArray(value)
          ? value.map(toThreeDecimals)
          : value !== null && typeof value === 'object'
            ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, toThreeDecimals(inner)]))
            : value;
    expect(body.result.structuredContent).toEqual(toThreeDecimals(deriveBoard(EVENTS, LATER)));
  });
});

describe('conditional requests on every GET that carries data', () => {
  it.each([
    '/api/status',
    '/api/timeline?provider=provider_a',
    '/api/timeline',
    '/api/timeline.csv?provider=provider_a',
    '/api/timeline.csv',
    '/feed.xml?provider=provider_a',
    '/feed.json',
    '/calendar.ics?provider=provider_b',
    '/badge/provider_a.svg',
    '/badge/provider_a.json',
    '/data/board.json',
  ])('%s has an ETag, and answers 304 to it and to If-None-Match: *', async (path) => {
    const first = await get(path);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^(W\/)?"[^"]+"$/);
    for (const validator of [etag!, '*', `"other", ${etag}`]) {
      const again = await get(path, { headers: { 'If-None-Match': validator } });
      expect(again.status, validator).toBe(304);
      expect(await again.text()).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
    }
    expect((await get(path, { headers: { 'If-None-Match': '"something-else"' } })).status).toBe(200);
  });
});

describe('built files through the route table', () => {
  it.each(['/data/board.json', '/openapi.json', '/llms.txt', '/calendar/provider_a.ics'])(
    'another method on %s is 405 with Allow, and OPTIONS answers',
    async (path) => {
      const refused = await get(path, { method: 'DELETE' });
      expect(refused.status).toBe(405);
      expect(refused.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      const options = await get(path, { method: 'OPTIONS' });
      expect(options.status).toBe(204);
      expect(options.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    },
  );
});
