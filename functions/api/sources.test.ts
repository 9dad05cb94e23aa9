import { afterEach, describe, expect, it, vi } from 'vitest';
import { fixtureFiles, memoryKv } from '../../scripts/lib/built-files.ts';
import { edgeApp } from '../../scripts/lib/edge-app.ts';
import { CACHE_POLICIES } from '../../src/core/routes/policy.ts';
import { NOW } from '../../src/core/test-events.ts';

/**
 * GET /api/sources in-process, the KV binding a stand-in in memory (the served suite reads the real local KV
 * that `npm run watch` wrote). The state is checked at times given around the 5-minute line.
 */

const FILES = fixtureFiles([], NOW);
const KEY = 'source-report';
const MINUTE = 60_000;

const check = (name: string, ok: boolean) => ({
  provider: 'provider_a',
  name,
  url: `https://feeds.example/${name}.rss`,
  checkedAt: '2026-06-15T11:59:00.000Z',
  ok,
  error: ok ? null : 'answered HTTP 500',
  itemsSeen: ok ? 3 : 0,
});
const REPORT = { checkedAt: '2026-06-15T12:00:00.000Z', sources: [check('answering', true), check('failing', false)] };

async function sourcesAt(stored: string | undefined, now: Date, init?: RequestInit, failing = false) {
  const kv = memoryKv(stored === undefined ? {} : { [KEY]: stored }, { failing });
  return (await edgeApp(FILES, { sourceHealth: kv }).request('/api/sources', init, now))!;
}

afterEach(() => vi.restoreAllMocks());

describe('GET /api/sources', () => {
  it('is unknown before any watch run wrote a report', async () => {
    const response = await sourcesAt(undefined, NOW);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe(CACHE_POLICIES.api);
    expect(await response.json()).toEqual({ checkedAt: null, sources: [], state: 'unknown' });
  });

  it.each([
    [0, 'current'],
    [4, 'current'],
    [5, 'current'],
    [6, 'delayed'],
    // Its failed source was checked a minute before the report: it has then been failing for 15 minutes, and for
    // over 15 a minute later (decisions.md, "Operable").
    [14, 'delayed'],
    [15, 'failing'],
    [60 * 24, 'failing'],
  ])('%i minutes after the report is %s, with every source shown', async (minutes, state) => {
    const response = await sourcesAt(JSON.stringify(REPORT), new Date(NOW.getTime() + minutes * MINUTE));
    expect(await response.json()).toEqual({ checkedAt: REPORT.checkedAt, sources: REPORT.sources, state });
  });

  it.each([
    ['not JSON', '{"checkedAt":'],
    ['not a report', JSON.stringify({ checkedAt: 'yesterday', sources: 'many' })],
    [
      'a report with an unknown provider',
      JSON.stringify({ ...REPORT, sources: [{ ...check('x', true), provider: 'provider_z' }] }),
    ],
  ])('answers a stored value that is %s as unknown (logged), never 500', async (_, stored) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const response = await sourcesAt(stored, NOW);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ checkedAt: null, sources: [], state: 'unknown' });
    expect(warn).toHaveBeenCalled();
  });

  it('answers a failing KV read as unknown (logged)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const response = await sourcesAt(JSON.stringify(REPORT), NOW, undefined, true);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ checkedAt: null, sources: [], state: 'unknown' });
    expect(warn).toHaveBeenCalled();
  });

  it('answers 304 while the answer is the same, and a new ETag once the state changes', async () => {
    const stored = JSON.stringify(REPORT);
    const etag = (await sourcesAt(stored, NOW)).headers.get('etag')!;
    expect((await sourcesAt(stored, NOW, { headers: { 'If-None-Match': etag } })).status).toBe(304);
    const later = await sourcesAt(stored, new Date(NOW.getTime() + 6 * MINUTE), {
      headers: { 'If-None-Match': etag },
    });
    expect(later.status).toBe(200);
    expect(((await later.json()) as { state: string }).state).toBe('delayed');
  });
});
