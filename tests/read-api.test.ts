import Papa from 'papaparse';
import Parser from 'rss-parser';
import { parseJsonFeed } from 'feedsmith';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { PublishedEvents } from '../src/core/dataset.ts';
import { publishedFromContent } from './support/published.ts';
import { PROVIDERS } from '../src/core/enums.ts';
import { TIMELINE_CSV_COLUMNS } from '../src/core/render/timeline-csv.ts';
import {
  ProviderStatusSchema,
  type StatusResponse,
  StatusResponseSchema,
  TimelineResponseSchema,
} from '../src/core/schemas.ts';
import { loadContract } from './support/openapi-contract.ts';

const baseUrl = inject('baseUrl');
const get = (path: string, init?: RequestInit) => fetch(`${baseUrl}${path}`, { redirect: 'manual', ...init });
const API_CACHE = 'public, s-maxage=60, stale-while-revalidate=300';
const FEED_CACHE = 'public, s-maxage=300, stale-while-revalidate=600';

let contract: Awaited<ReturnType<typeof loadContract>>;
let dataset: PublishedEvents;

beforeAll(async () => {
  contract = await loadContract(baseUrl);
  dataset = await publishedFromContent();
});

describe('GET /api/status', () => {
  it('is the board at request time, as the contract describes it, with the spec’s headers', async () => {
    const before = Date.now();
    const response = await get('/api/status');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe(API_CACHE);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const body = StatusResponseSchema.parse(await response.json());
    contract.expectBodyMatches('/api/status', 200, body);
    expect(Date.parse(body.updatedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(body.providers.map((entry) => entry.provider)).toEqual([...PROVIDERS]);
  });

  it('answers 304 to If-None-Match with its ETag', async () => {
    const first = await get('/api/status');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\/"/);
    const second = await get('/api/status', { headers: { 'If-None-Match': etag! } });
    expect(second.status).toBe(304);
    expect(second.headers.get('etag')).toBe(etag);
    expect(second.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('GET /api/status/<provider> is one entry of the board; an unknown one is 404 invalid_provider', async () => {
    const one = await get('/api/status/provider_b');
    expect(one.status).toBe(200);
    const body = await one.json();
    contract.expectBodyMatches('/api/status/{provider}', 200, body);
    expect(body).toMatchObject({ provider: 'provider_b' });

    const unknown = await get('/api/status/provider_z');
    expect(unknown.status).toBe(404);
    const error = await unknown.json();
    contract.expectBodyMatches('/api/status/{provider}', 404, error);
    expect(error).toEqual({ error: 'invalid_provider' });
  });
});

/**
 * The lines /api/status.txt should hold for a board, written here from the decided format (decisions.md, "A
 * status line for terminals and status bars") with Intl's number formatting, not the service's renderer.
 */
const tenths = new Intl.NumberFormat('en-US', {
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
  useGrouping: false,
});
const expectedLines = (entries: readonly StatusResponse['providers'][number][]) =>
  entries
    .map(({ provider, status, daysSince, nextEstimate }) =>
      [provider, status, daysSince === null ? '-' : tenths.format(daysSince), nextEstimate ?? '-'].join('\t'),
    )
    .map((line) => `${line}\n`)
    .join('');

describe('GET /api/status.txt', () => {
  /** The JSON it mirrors, fetched just before and just after it: the text matches one of the two moments. */
  async function around(path: string, jsonPath: string) {
    const before = await get(jsonPath);
    const response = await get(path);
    const after = await get(jsonPath);
    const boards = [await before.json(), await after.json()] as unknown[];
    return { response, boards, etags: [before.headers.get('etag'), after.headers.get('etag')] };
  }

  it('is one tab-separated line per provider in the enumeration’s order: the board /api/status has', async () => {
    const { response, boards, etags } = await around('/api/status.txt', '/api/status');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe(API_CACHE);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(etags).toContain(response.headers.get('etag'));
    const text = await response.text();
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.slice(0, -1).split('\n');
    expect(lines.map((line) => line.split('\t').length)).toEqual(PROVIDERS.map(() => 4));
    expect(lines.map((line) => line.split('\t')[0])).toEqual([...PROVIDERS]);
    const expected = boards.map((board) => expectedLines(StatusResponseSchema.parse(board).providers));
    expect(expected).toContain(text);
  });

  it.each(PROVIDERS)(
    '?provider=%s is that provider’s line alone, with /api/status/<provider>’s ETag',
    async (provider) => {
      const { response, boards, etags } = await around(
        `/api/status.txt?provider=${provider}`,
        `/api/status/${provider}`,
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('etag')).toMatch(/^W\/"/);
      expect(etags).toContain(response.headers.get('etag'));
      const text = await response.text();
      expect(text.split('\n')).toEqual([expect.stringMatching(new RegExp(`^${provider}\t`)), '']);
      expect(boards.map((entry) => expectedLines([ProviderStatusSchema.parse(entry)]))).toContain(text);
    },
  );

  it('answers 304 to its ETag, and HEAD with headers only', async () => {
    const etag = (await get('/api/status.txt')).headers.get('etag')!;
    const again = await get('/api/status.txt', { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('cache-control')).toBe(API_CACHE);
    const head = await get('/api/status.txt', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it.each(['provider=all', 'provider=nobody', 'provider=', 'provider=provider_a&provider=provider_b'])(
    '?%s is 400 invalid_query, JSON',
    async (query) => {
      const response = await get(`/api/status.txt?${query}`);
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const body = await response.json();
      contract.expectBodyMatches('/api/status.txt', 400, body);
      expect(body).toMatchObject({ error: 'invalid_query', issues: [{ path: ['provider'] }] });
    },
  );
});

describe('GET /api/timeline', () => {
  it('serves the prerendered default: every published event up to 200, newest first, stamped with the build', async () => {
    const response = await get('/api/timeline');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe(API_CACHE);
    const body = TimelineResponseSchema.parse(await response.json());
    contract.expectBodyMatches('/api/timeline', 200, body);
    expect(body.provider).toBe('all');
    expect(body.events).toEqual(dataset.events.slice(0, 200));
    const builtAt = ((await (await get('/data/board.json')).json()) as { builtAt: string }).builtAt;
    expect(body.updatedAt).toBe(builtAt);
  });

  it.each(PROVIDERS)('filters by %s and limit at the edge', async (provider) => {
    const response = await get(`/api/timeline?provider=${provider}&limit=3`);
    expect(response.status).toBe(200);
    const body = TimelineResponseSchema.parse(await response.json());
    contract.expectBodyMatches('/api/timeline', 200, body);
    expect(body.provider).toBe(provider);
    expect(body.events).toEqual(dataset.events.filter((event) => event.provider === provider).slice(0, 3));
  });

  it('answers format=csv exactly as /api/timeline.csv', async () => {
    for (const query of ['', 'provider=provider_c&limit=4']) {
      const viaFormat = await get(`/api/timeline?format=csv${query ? `&${query}` : ''}`);
      const direct = await get(`/api/timeline.csv${query ? `?${query}` : ''}`);
      expect(viaFormat.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(viaFormat.headers.get('content-disposition')).toBe(direct.headers.get('content-disposition'));
      expect(await viaFormat.text()).toBe(await direct.text());
    }
  });

  it('ignores unknown parameters', async () => {
    expect((await get('/api/timeline?utm_source=chat&provider=provider_a')).status).toBe(200);
  });
});

describe('GET /api/timeline.csv', () => {
  it.each([
    ['', 'all', 200],
    ['?provider=provider_a&limit=5', 'provider_a', 5],
  ])('?%s is RFC 4180 CSV that papaparse reads, named after %s', async (query, provider, limit) => {
    const response = await get(`/api/timeline.csv${query}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe(API_CACHE);
    expect(response.headers.get('content-disposition')).toBe(
      `inline; filename=departures-board-timeline-${provider}.csv`,
    );
    const text = await response.text();
    expect(text.endsWith('\r\n')).toBe(true);
    const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.meta.fields).toEqual([...TIMELINE_CSV_COLUMNS]);
    const expected = dataset.events
      .filter((event) => provider === 'all' || event.provider === provider)
      .slice(0, limit);
    expect(parsed.data.map((row) => row['id'])).toEqual(expected.map((event) => event.id));
    expect(parsed.data.map((row) => row['page_url'])).toEqual(
      expected.map((event) => `${baseUrl}/${event.provider}#event-${event.id}`),
    );
  });
});

describe('feeds', () => {
  const parser = new Parser();

  it.each([undefined, 'provider_c'])(
    'GET /feed.xml (provider %s) is RSS 2.0 with the latest announcements',
    async (provider) => {
      const response = await get(`/feed.xml${provider ? `?provider=${provider}` : ''}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe(FEED_CACHE);
      const xml = await response.text();
      const feed = await parser.parseString(xml);
      const expected = dataset.events.filter((event) => !provider || event.provider === provider).slice(0, 100);
      expect(feed.items.map((item) => item.guid)).toEqual(
        expected.map((event) => `${baseUrl}/${event.provider}#event-${event.id}`),
      );
      expect(feed.items.map((item) => item.categories)).toEqual(expected.map((event) => [event.provider, event.kind]));
      expect(xml).toContain(
        `<atom:link href="${baseUrl}/feed.xml${provider ? `?provider=${provider}` : ''}" rel="self"`,
      );
    },
  );

  it('GET /feed.atom and /feed.json carry the same items', async () => {
    const rss = await parser.parseString(await (await get('/feed.xml')).text());
    const atomResponse = await get('/feed.atom?provider=provider_a');
    expect(atomResponse.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    const atom = await parser.parseString(await atomResponse.text());
    expect(atom.items.map((item) => item.id)).toEqual(
      rss.items.filter((item) => item.categories?.[0] === 'provider_a').map((item) => item.guid),
    );
    const jsonResponse = await get('/feed.json');
    expect(jsonResponse.headers.get('content-type')).toBe('application/feed+json; charset=utf-8');
    const json = parseJsonFeed(await jsonResponse.text());
    expect(json.items?.map((item) => item.id)).toEqual(rss.items.map((item) => item.guid));
  });

  it('GET /api/feed is a 308 to /feed.xml that keeps the query', async () => {
    const response = await get('/api/feed?provider=provider_b');
    expect(response.status).toBe(308);
    expect(response.headers.get('location')).toBe('/feed.xml?provider=provider_b');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('Markdown mirrors', () => {
  it.each([
    [
      '/index.md',
      [
        '## Status',
        '## What the status words mean',
        '## Latest announcements',
        '## Machine-readable endpoints',
        'Cadence estimate',
      ],
    ],
    ['/zh/index.md', ['## 状态', '## 状态词说明', '## 最新公告', '## 机器可读接口', '节奏估计']],
  ])('GET %s has every required part, regenerated per request', async (path, parts) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, s-maxage=60');
    const markdown = await response.text();
    for (const part of parts) expect(markdown).toContain(part);
    // One line per provider under the status heading, then one per status word in the legend.
    const [status, legend] = markdown.split(/^## /m).slice(1, 3);
    expect(status!.match(/^- \*\*/gm)).toHaveLength(3);
    expect(legend!.match(/^- \*\*/gm)).toHaveLength(6);
    for (const event of dataset.events.slice(0, 6)) expect(markdown).toContain(event.sourceUrl);
    expect(markdown).toContain(`${baseUrl}/api/status`);
    expect(markdown).toContain(`${baseUrl}/openapi.json`);
  });

  it('GET /llms.txt points agents to the mirrors, the OpenAPI document and MCP', async () => {
    const response = await get('/llms.txt');
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await response.text();
    for (const path of ['/index.md', '/zh/index.md', '/openapi.json', '/mcp'])
      expect(text).toContain(`${baseUrl}${path}`);
  });
});

describe('errors (spec section 7)', () => {
  it.each([
    '/api/timeline?provider=provider_x',
    '/api/timeline?limit=0',
    '/api/timeline?limit=501',
    '/api/timeline?limit=2.5',
    '/api/timeline?limit=ten',
    '/api/timeline?format=xml',
    '/api/timeline?provider=provider_a&provider=provider_b',
    '/api/timeline.csv?provider=everyone',
    '/api/timeline.csv?limit=-1',
    '/feed.xml?provider=all',
    '/feed.atom?provider=nope',
    '/feed.json?provider=',
  ])('%s is 400 invalid_query with issues', async (path) => {
    const response = await get(path);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const body = (await response.json()) as { error: string; issues: unknown[] };
    contract.expectBodyMatches(new URL(path, baseUrl).pathname, 400, body);
    expect(body.error).toBe('invalid_query');
    expect(body.issues.length).toBeGreaterThan(0);
  });
});

describe('CORS and methods', () => {
  it.each(['/api/status', '/api/timeline', '/api/timeline.csv', '/feed.xml', '/api/ics'])(
    'OPTIONS %s is the spec’s preflight',
    async (path) => {
      const response = await get(path, {
        method: 'OPTIONS',
        headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'GET' },
      });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS');
      expect(response.headers.get('access-control-max-age')).toBe('86400');
    },
  );

  it.each([
    '/',
    '/openapi.json',
    '/llms.txt',
    '/data/board.json',
    '/data/events/index.json',
    '/no-such-page',
    '/api/status/nope',
    '/feed.json',
  ])('GET %s carries Access-Control-Allow-Origin: *', async (path) => {
    expect((await get(path)).headers.get('access-control-allow-origin')).toBe('*');
  });

  it('refuses other methods on the API with 405 and Allow', async () => {
    const response = await get('/api/status', { method: 'POST' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});
