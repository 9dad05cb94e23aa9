import { describe, expect, it } from 'vitest';
import {
  OneProviderQuerySchema,
  IcsQuerySchema,
  parseQuery,
  TimelineCsvQuerySchema,
  TimelineQuerySchema,
} from './query.ts';

const parse = (schema: Parameters<typeof parseQuery>[0], query: string) =>
  parseQuery(schema, new URLSearchParams(query));

describe('parseQuery: timeline', () => {
  it.each([
    ['', { provider: 'all', limit: 200, format: 'json' }],
    ['provider=provider_b&limit=1', { provider: 'provider_b', limit: 1, format: 'json' }],
    ['provider=all&limit=500&format=csv', { provider: 'all', limit: 500, format: 'csv' }],
    ['limit=007', { provider: 'all', limit: 7, format: 'json' }],
    ['unknown=1&utm_source=x&provider=provider_c', { provider: 'provider_c', limit: 200, format: 'json' }],
  ])('accepts ?%s', (query, expected) => {
    expect(parse(TimelineQuerySchema, query)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['provider=provider_d', 'provider', 'invalid_value'],
    ['provider=', 'provider', 'invalid_value'],
    ['provider=PROVIDER_A', 'provider', 'invalid_value'],
    ['limit=0', 'limit', 'too_small'],
    ['limit=501', 'limit', 'too_big'],
    ['limit=99999999999999999999999', 'limit', 'too_big'],
    ['limit=1.5', 'limit', 'invalid_format'],
    ['limit=1e2', 'limit', 'invalid_format'],
    ['limit=+5', 'limit', 'invalid_format'],
    ['limit=-5', 'limit', 'invalid_format'],
    ['limit=%205', 'limit', 'invalid_format'],
    ['limit=', 'limit', 'invalid_format'],
    ['limit=abc', 'limit', 'invalid_format'],
    ['format=xml', 'format', 'invalid_value'],
    ['provider=provider_a&provider=provider_b', 'provider', 'repeated_parameter'],
    ['limit=5&limit=5', 'limit', 'repeated_parameter'],
  ])('refuses ?%s with an issue on %s', (query, field, code) => {
    const result = parse(TimelineQuerySchema, query);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues).toContainEqual({ code, path: [field], message: expect.any(String) });
  });

  it('reports every bad parameter at once', () => {
    const result = parse(TimelineQuerySchema, 'provider=x&limit=0&format=pdf');
    expect(result.ok || result.issues.map((issue) => issue.path[0]).sort()).toEqual(['format', 'limit', 'provider']);
  });

  it('the CSV path has no format parameter: it is ignored like any unknown one', () => {
    expect(parse(TimelineCsvQuerySchema, 'format=xml')).toEqual({ ok: true, value: { provider: 'all', limit: 200 } });
  });
});

describe('parseQuery: feeds', () => {
  it.each([
    ['', {}],
    ['provider=provider_a', { provider: 'provider_a' }],
  ])('accepts ?%s', (query, expected) => {
    expect(parse(OneProviderQuerySchema, query)).toEqual({ ok: true, value: expected });
  });

  it.each(['provider=all', 'provider=nope', 'provider=provider_a&provider=provider_a'])('refuses ?%s', (query) => {
    expect(parse(OneProviderQuerySchema, query).ok).toBe(false);
  });
});

describe('parseQuery: calendar', () => {
  it.each([
    ['provider=provider_a&resetAt=2026-11-21T18:30:00%2B01:00', { resetAt: '2026-11-21T18:30:00+01:00' }],
    [
      'provider=provider_a&weeklyAt=2026-11-23T09:00:00Z&locale=zh&tz=Europe/Berlin',
      { weeklyAt: '2026-11-23T09:00:00Z', locale: 'zh', tz: 'Europe/Berlin' },
    ],
    ['provider=provider_a&resetAt=0001-01-01T00:00:00Z', { resetAt: '0001-01-01T00:00:00Z' }],
    ['provider=provider_a&resetAt=9999-12-31T23:59:59%2B05:00', { resetAt: '9999-12-31T23:59:59+05:00' }],
    ['provider=provider_a&resetAt=0001-01-01T00:00:00Z', { resetAt: '0001-01-01T00:00:00Z' }],
    ['provider=provider_a&resetAt=9999-12-31T23:59:59%2B05:00', { resetAt: '9999-12-31T23:59:59+05:00' }],
  ])('accepts ?%s', (query, expected) => {
    const result = parse(IcsQuerySchema, query);
    expect(result).toEqual({ ok: true, value: expect.objectContaining(expected) });
  });

  it.each([
    ['resetAt=2026-11-21T18:30:00Z', 'provider'],
    ['provider=provider_a', 'resetAt'],
    ['provider=provider_a&resetAt=2026-11-21T18:30:00', 'resetAt'],
    ['provider=provider_a&resetAt=2026-02-30T18:30:00Z', 'resetAt'],
    ['provider=provider_a&weeklyAt=tomorrow', 'weeklyAt'],
    ['provider=provider_a&resetAt=0000-01-01T00:00:00%2B08:00', 'resetAt'],
    ['provider=provider_a&resetAt=0000-06-01T00:00:00Z', 'resetAt'],
    ['provider=provider_a&weeklyAt=9999-12-31T23:59:59-05:00', 'weeklyAt'],
    ['provider=provider_a&resetAt=2026-11-21T18:30:00Z&tz=Europe/Berlin;DROP', 'tz'],
    [`provider=provider_a&resetAt=2026-11-21T18:30:00Z&tz=${'A'.repeat(65)}`, 'tz'],
    ['provider=provider_a&resetAt=2026-11-21T18:30:00Z&locale=fr', 'locale'],
  ])('refuses ?%s with an issue on %s', (query, field) => {
    const result = parse(IcsQuerySchema, query);
    expect(result.ok || result.issues.map((issue) => issue.path[0])).toContain(field);
  });
});
