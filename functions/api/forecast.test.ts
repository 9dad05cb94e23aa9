import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fixtureFiles } from '../../scripts/lib/built-files.ts';
import { edgeApp } from '../../scripts/lib/edge-app.ts';
import { forecastFromHistory } from '../../src/core/forecast/rule.ts';
import { ForecastResponseSchema, ForecastTrackRecordSchema } from '../../src/core/forecast/schemas.ts';
import { PROVIDERS } from '../../src/core/enums.ts';
import { EDGE_SUMMARIES_PATH } from '../../src/core/dataset.ts';
import { providerPagePath } from '../../src/core/provider-page.ts';
import { makeEvent, NOW, resetsWithGaps } from '../../src/core/test-events.ts';
import { forgetLoadedData } from '../../src/server/data-source.ts';

/**
 * GET /api/forecast and /api/forecast/track-record in-process. The forecast served (computed from the build's
 * summaries) is compared with the rule read straight from every event and with plain gap arithmetic here; the
 * track record with a brute-force replay of the whole-history rule, day by day.
 */

const DAY = 86_400_000;
const LATER = new Date(NOW.getTime() + 5 * 3_600_000);
// provider_a: 24 gaps, of which the basis keeps the last 20; the last reset 3 days before the build.
const A_GAPS = [5, 9, 6, 7, 8, 4, 10, 7, 6, 8, 9, 5, 7, 6, 11, 8, 7, 5, 9, 6, 7, 8, 6, 10];
const EVENTS = [
  ...resetsWithGaps(A_GAPS, 3).map((event) => ({ ...event, provider: 'provider_a' as const })),
  // provider_b: 3 gaps, too few.
  ...resetsWithGaps([6, 7, 8], 2).map((event) => ({ ...event, provider: 'provider_b' as const })),
  // provider_c: 6 gaps, and a reset announced for two days after the build.
  ...resetsWithGaps([3, 4, 3, 5, 4, 3], 1).map((event) => ({ ...event, provider: 'provider_c' as const })),
  makeEvent({
    provider: 'provider_c',
    kind: 'reset',
    announcedAt: NOW.toISOString(),
    effectiveAt: new Date(NOW.getTime() + 2 * DAY).toISOString(),
  }),
  // A draft is never part of any answer.
  makeEvent({
    provider: 'provider_a',
    kind: 'reset',
    announcedAt: new Date(NOW.getTime() - DAY).toISOString(),
    verified: false,
  }),
];
const files = fixtureFiles(EVENTS, NOW);
const get = (path: string, init?: RequestInit) =>
  edgeApp(files)
    .request(path, init, LATER)
    .then((response) => response!);

beforeEach(() => forgetLoadedData());

describe('GET /api/forecast', () => {
  it('is the whole-history rule at request time for every provider, valid by its schema', async () => {
    const response = await get('/api/forecast');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('public, s-maxage=60, stale-while-revalidate=300');
    const body = ForecastResponseSchema.parse(await response.json());
    expect(body.updatedAt).toBe(LATER.toISOString());
    expect(body.providers).toEqual(PROVIDERS.map((provider) => forecastFromHistory(provider, EVENTS, LATER)));
    expect(body.providers.map((forecast) => forecast.basis)).toEqual(['cadence', 'insufficient', 'announced']);
  });

  it('counts provider_a’s chances over its last 20 gaps, as plain arithmetic says', async () => {
    const body = ForecastResponseSchema.parse(await (await get('/api/forecast')).json());
    const forecast = body.providers[0]!;
    const basis = A_GAPS.slice(-20);
    const elapsed = 3 + 5 / 24;
    const longer = basis.filter((gap) => gap > elapsed);
    const share = (days: number) => longer.filter((gap) => gap <= elapsed + days).length / longer.length;
    expect(forecast.sampleSize).toBe(20);
    expect(forecast.elapsedDays).toBeCloseTo(elapsed, 3);
    expect(forecast.probabilities['1d']).toBeCloseTo(share(1), 3);
    expect(forecast.probabilities['3d']).toBeCloseTo(share(3), 3);
    expect(forecast.probabilities['7d']).toBeCloseTo(share(7), 3);
    expect(body.providers[2]!.announcedFor).toBe(new Date(NOW.getTime() + 2 * DAY).toISOString());
  });

  it('carries an ETag and answers 304 to it', async () => {
    const response = await get('/api/forecast');
    const etag = response.headers.get('etag')!;
    expect(etag).toBeTruthy();
    const again = await get('/api/forecast', { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });
});

/** The track record by brute force: forecastFromHistory at every checkpoint, scored by the Brier formula. */
function bruteForceBrier(horizonDays: 1 | 7) {
  const resetTimes = EVENTS.filter((event) => event.provider === 'provider_a' && event.verified).map((event) =>
    Date.parse(event.announcedAt),
  );
  const first = [...resetTimes].sort((a, b) => a - b)[5]!;
  let sum = 0;
  let scored = 0;
  let checkpoints = 0;
  for (let at = first; at <= NOW.getTime(); at += DAY) {
    checkpoints += 1;
    const forecast = forecastFromHistory('provider_a', EVENTS, new Date(at));
    const probability = forecast.probabilities[horizonDays === 1 ? '1d' : '7d'];
    if (probability === null || at + horizonDays * DAY > NOW.getTime()) continue;
    const happened = resetTimes.some((time) => time > at && time <= at + horizonDays * DAY);
    sum += (probability - (happened ? 1 : 0)) ** 2;
    scored += 1;
  }
  return { first, checkpoints, scored, brier: sum / scored };
}

describe('GET /api/forecast/track-record', () => {
  it('serves the built record: provider_a replayed day by day, too little history elsewhere', async () => {
    const response = await get('/api/forecast/track-record');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('public, s-maxage=60, stale-while-revalidate=300');
    const body = ForecastTrackRecordSchema.parse(await response.json());
    expect(body.updatedAt).toBe(NOW.toISOString());
    const [a, b, c] = body.providers;
    for (const horizon of [1, 7] as const) {
      const expected = bruteForceBrier(horizon);
      const score = a!.horizons[horizon === 1 ? '1d' : '7d'];
      expect(a!.firstCheckpoint).toBe(new Date(expected.first).toISOString());
      expect(a!.checkpoints).toBe(expected.checkpoints);
      expect(score.scored).toBe(expected.scored);
      // The brute force scores the published probabilities (rounded to 3 decimals), the record the exact ones.
      expect(Math.abs(score.brierScore! - expected.brier)).toBeLessThan(0.002);
      expect(score.reliability.reduce((sum, bin) => sum + bin.count, 0)).toBe(expected.scored);
    }
    expect(b).toMatchObject({ provider: 'provider_b', firstCheckpoint: null, checkpoints: 0 });
    expect(c!.provider).toBe('provider_c');
  });

  it('is the same record that each provider page’s data file carries', async () => {
    const body = ForecastTrackRecordSchema.parse(await (await get('/api/forecast/track-record')).json());
    for (const record of body.providers) {
      const page = JSON.parse(new TextDecoder().decode(files.get(providerPagePath(record.provider)))) as {
        forecastTrackRecord: unknown;
      };
      expect(page.forecastTrackRecord).toEqual(record);
    }
  });

  it('carries the built file’s ETag and answers 304 to it', async () => {
    const response = await get('/api/forecast/track-record');
    const etag = response.headers.get('etag')!;
    expect(etag).toBeTruthy();
    const again = await get('/api/forecast/track-record', { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('cache-control')).toBe('public, s-maxage=60, stale-while-revalidate=300');
  });

  it('answers HEAD without a body and refuses POST with 405', async () => {
    const head = await get('/api/forecast/track-record', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await get('/api/forecast', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});

describe('without their data', () => {
  it.each([
    ['/api/forecast', EDGE_SUMMARIES_PATH],
    ['/api/forecast/track-record', '/api/forecast/track-record'],
  ])('%s answers 500 internal_error when %s is missing', async (path, missing) => {
    const withoutFile = new Map(files);
    withoutFile.delete(missing);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const response = (await edgeApp(withoutFile).request(path, undefined, LATER))!;
    warn.mockRestore();
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: 'internal_error' });
  });
});
