import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { PublishedEvents } from '../src/core/dataset.ts';
import { PROVIDERS } from '../src/core/enums.ts';
import { forecastFromHistory } from '../src/core/forecast/rule.ts';
import { ForecastResponseSchema, ForecastTrackRecordSchema } from '../src/core/forecast/schemas.ts';
import { loadContract } from './support/openapi-contract.ts';
import { publishedFromContent } from './support/published.ts';

/**
 * The forecast endpoints as served by workerd: bodies against the served OpenAPI document (Ajv), the spec's
 * caching and conditional requests, and the forecast against the rule read straight from the fixture's files.
 */

const baseUrl = inject('baseUrl');
const get = (path: string, init?: RequestInit) => fetch(`${baseUrl}${path}`, init);
const API_CACHE = 'public, s-maxage=60, stale-while-revalidate=300';

let contract: Awaited<ReturnType<typeof loadContract>>;
let dataset: PublishedEvents;

beforeAll(async () => {
  contract = await loadContract(baseUrl);
  dataset = await publishedFromContent();
});

describe('GET /api/forecast', () => {
  it('is what the contract describes, with the API cache and CORS', async () => {
    const response = await get('/api/forecast');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe(API_CACHE);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const body = (await response.json()) as unknown;
    contract.expectBodyMatches('/api/forecast', 200, body);
    ForecastResponseSchema.parse(body);
  });

  it('is the rule over the whole history at the moment of the request', async () => {
    const before = new Date();
    const body = ForecastResponseSchema.parse(await (await get('/api/forecast')).json());
    const after = new Date();
    expect(Date.parse(body.updatedAt)).toBeGreaterThanOrEqual(before.getTime());
    expect(Date.parse(body.updatedAt)).toBeLessThanOrEqual(after.getTime());
    expect(body.providers.map((forecast) => forecast.provider)).toEqual([...PROVIDERS]);
    for (const forecast of body.providers)
      expect(forecast).toEqual(forecastFromHistory(forecast.provider, dataset.events, new Date(body.updatedAt)));
  });

  it('answers 304 to If-None-Match with its ETag', async () => {
    const response = await get('/api/forecast');
    const etag = response.headers.get('etag');
    expect(etag).toBeTruthy();
    await response.arrayBuffer();
    // The ETag leaves out the fields that move only with the clock (updatedAt, elapsedDays).
    const again = await get('/api/forecast', { headers: { 'If-None-Match': etag! } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(await again.text()).toBe('');
  });
});

describe('GET /api/forecast/track-record', () => {
  it('is what the contract describes, built with the site from the published events', async () => {
    const response = await get('/api/forecast/track-record');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe(API_CACHE);
    const body = (await response.json()) as unknown;
    contract.expectBodyMatches('/api/forecast/track-record', 200, body);
    const record = ForecastTrackRecordSchema.parse(body);
    expect(record.providers.map((entry) => entry.provider)).toEqual([...PROVIDERS]);
    // The first checkpoint is the moment the sixth reset of the fixture took effect (5 gaps exist).
    for (const entry of record.providers) {
      const resetTimes = dataset.events
        .filter((event) => event.provider === entry.provider && event.kind === 'reset')
        .map((event) => Math.max(Date.parse(event.announcedAt), Date.parse(event.effectiveAt ?? event.announcedAt)))
        .filter((time) => time <= Date.parse(record.updatedAt))
        .sort((a, b) => a - b);
      const sixth = resetTimes[5];
      expect(entry.firstCheckpoint).toBe(sixth === undefined ? null : new Date(sixth).toISOString());
    }
  });

  it('answers 304 to If-None-Match with the built file’s ETag', async () => {
    const response = await get('/api/forecast/track-record');
    const etag = response.headers.get('etag');
    expect(etag).toBeTruthy();
    await response.arrayBuffer();
    const again = await get('/api/forecast/track-record', { headers: { 'If-None-Match': etag! } });
    expect(again.status).toBe(304);
    expect(again.headers.get('cache-control')).toBe(API_CACHE);
  });
});
