import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fixtureFiles } from '../../scripts/lib/built-files.ts';
import { edgeApp } from '../../scripts/lib/edge-app.ts';
import { CACHE_POLICIES } from '../../src/core/routes/policy.ts';
import { makeEvent, NOW } from '../../src/core/test-events.ts';
import type { EventProvenance } from '../../src/core/provenance.ts';
import { forgetLoadedData } from '../../src/server/data-source.ts';

/**
 * GET /api/events/<id> in-process over the files a build of a fixture holds. The expected records are written
 * out from the fixture (the event as given, its page address spelled by hand, the provenance handed to the
 * build), not derived by the code that writes the shards.
 */

const ORIGIN = 'http://localhost:4321';
const RECORDED = makeEvent({
  id: 'recorded-and-verified',
  provider: 'provider_b',
  announcedAt: '2026-06-10T08:00:00.000Z',
});
const WITHOUT_HISTORY = makeEvent({
  id: 'no-history',
  provider: 'provider_c',
  announcedAt: '2026-06-11T08:00:00.000Z',
});
const DRAFT = makeEvent({ id: 'still-a-draft', verified: false, announcedAt: '2026-06-12T08:00:00.000Z' });
// Enough events that they land in many shards.
const MANY = Array.from({ length: 600 }, (_, index) =>
  makeEvent({ id: `bulk-${index}`, announcedAt: new Date(Date.UTC(2025, 0, 1) + index * 3_600_000).toISOString() }),
);
const SHA_RECORDED = 'a'.repeat(40);
const SHA_VERIFIED = 'b'.repeat(40);
const PROVENANCE: EventProvenance = {
  recordedAt: '2026-06-10T08:30:00.000Z',
  verifiedAt: '2026-06-10T09:15:00.000Z',
  recordedCommit: { sha: SHA_RECORDED, url: `https://github.com/owner/board/commit/${SHA_RECORDED}` },
  verifiedCommit: { sha: SHA_VERIFIED, url: `https://github.com/owner/board/commit/${SHA_VERIFIED}` },
  lagMinutes: 75,
  review: null,
};
const NULLS = {
  recordedAt: null,
  verifiedAt: null,
  recordedCommit: null,
  verifiedCommit: null,
  lagMinutes: null,
  review: null,
};

const files = fixtureFiles(
  [RECORDED, WITHOUT_HISTORY, DRAFT, ...MANY],
  NOW,
  ORIGIN,
  new Map([[RECORDED.id, PROVENANCE]]),
);
const app = edgeApp(files, { origin: ORIGIN });
const get = async (path: string, init?: RequestInit) => (await app.request(path, init, NOW))!;

beforeEach(() => {
  forgetLoadedData();
  vi.restoreAllMocks();
});

describe('GET /api/events/<id>', () => {
  it('answers the event, its page and its provenance from git', async () => {
    const response = await get(`/api/events/${RECORDED.id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe(CACHE_POLICIES.api);
    expect(response.headers.get('etag')).toMatch(/^(W\/)?"/);
    expect(await response.json()).toEqual({
      event: RECORDED,
      pageUrl: 'http://localhost:4321/provider_b#event-recorded-and-verified',
      provenance: PROVENANCE,
    });
  });

  it('gives null provenance to an event whose history is unknown (a build outside git)', async () => {
    const response = await get('/api/events/no-history');
    expect(await response.json()).toEqual({
      event: WITHOUT_HISTORY,
      pageUrl: 'http://localhost:4321/provider_c#event-no-history',
      provenance: NULLS,
    });
  });

  it('finds every published event, wherever its id hashes to, in at most 256 files', async () => {
    for (const event of MANY) {
      const response = await get(`/api/events/${event.id}`);
      expect(response.status, event.id).toBe(200);
      expect(((await response.json()) as { event: unknown }).event).toEqual(event);
    }
    const shards = [...files.keys()].filter((file) => file.startsWith('/data/records/'));
    expect(shards.length).toBe(256);
    const nonEmpty = shards.filter((file) => new TextDecoder().decode(files.get(file)).includes('"event"'));
    expect(nonEmpty.length).toBeGreaterThan(100);
  });

  it.each([
    ['an unknown id', '/api/events/never-announced'],
    ['a draft (not published)', '/api/events/still-a-draft'],
    ['a property every object has', '/api/events/constructor'],
    ['another', '/api/events/hasOwnProperty'],
  ])('answers %s with 404 invalid_event', async (_, path) => {
    const response = await get(path);
    expect(response.status).toBe(404);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ error: 'invalid_event' });
  });

  it.each([
    ['/api/events/', 308],
    ['/api/events/..%2F..%2Fboard', 404],
    ['/api/events/a%00b', 404],
  ])('answers the odd path %s by the odd-path policy (%i), reading no file', async (path, status) => {
    const fetchAsset = vi.spyOn(app.env.ASSETS, 'fetch');
    const response = await get(path);
    expect(response.status).toBe(status);
    expect(fetchAsset).not.toHaveBeenCalled();
  });

  it.each([
    '/api/events/_leading-underscore',
    '/api/events/a.b',
    '/api/events/a%20b',
    `/api/events/${'x'.repeat(129)}`,
    '/api/events/%E2%80%AEevil',
    '/api/events/%',
  ])('answers the malformed id of %s with 404 invalid_event, reading no file', async (path) => {
    const fetchAsset = vi.spyOn(app.env.ASSETS, 'fetch');
    const response = await get(path);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'invalid_event' });
    expect(fetchAsset).not.toHaveBeenCalled();
  });

  it('answers 304 to a matching If-None-Match, and HEAD without a body', async () => {
    const first = await get(`/api/events/${RECORDED.id}`);
    const etag = first.headers.get('etag')!;
    const again = await get(`/api/events/${RECORDED.id}`, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const head = await get(`/api/events/${RECORDED.id}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('answers 500 internal_error when the shard file is missing (the build is broken, not the id)', async () => {
    const broken = new Map([...files].filter(([file]) => !file.startsWith('/data/records/')));
    const response = (await edgeApp(broken, { origin: ORIGIN }).request(`/api/events/${RECORDED.id}`, {}, NOW))!;
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: 'internal_error' });
  });
});
