import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { longString } from '../../../tests/support/hostile-requests.ts';
import {
  OneProviderQuerySchema,
  IcsQuerySchema,
  parseQuery,
  TimelineCsvQuerySchema,
  TimelineQuerySchema,
} from './query.ts';
import { scaled } from '../../../scripts/lib/load-scaled.ts';

/** Every query parser against hostile query strings: it answers, never throws, and never lets garbage through. */

const KEYS = [
  'provider',
  'limit',
  'format',
  'resetAt',
  'weeklyAt',
  'tz',
  'locale',
  'utm_source',
  '',
  'PROVIDER',
  'limit[]',
  '__proto__',
  'constructor',
];
const hostileValue = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 50 }),
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.constantFrom(
    'provider_a',
    'all',
    '200',
    '0',
    '-1',
    '1e3',
    '500',
    '501',
    ' 5',
    '5 ',
    '\u0000',
    '%00',
    'provider_a\u0000',
    '2026-11-21T18:30:00Z',
    '2026-02-30T10:00:00+01:00',
    'Europe/Berlin\r\nX: y',
    'json',
    'csv',
    'zh',
  ),
  longString(2_000, 10_000),
  fc.nat().map(String),
);
const queries = fc.array(fc.tuple(fc.constantFrom(...KEYS), hostileValue), { maxLength: 12 }).map((pairs) => {
  const params = new URLSearchParams();
  for (const [key, value] of pairs) params.append(key, value);
  return params;
});

describe.each([
  ['timeline', TimelineQuerySchema],
  ['timeline CSV', TimelineCsvQuerySchema],
  ['feeds', OneProviderQuerySchema],
  ['calendar', IcsQuerySchema],
])('the %s query parser', (_, schema) => {
  it(
    'answers every query with a valid value or with issues that say where',
    () => {
      fc.assert(
        fc.property(queries, (params) => {
          const result = parseQuery(schema, params);
          if (result.ok) {
            expect(
              schema.safeParse(
                Object.fromEntries(
                  Object.keys(schema.shape).flatMap((key) => (params.has(key) ? [[key, params.get(key)]] : [])),
                ),
              ).success,
            ).toBe(true);
            for (const key of Object.keys(schema.shape)) expect(params.getAll(key).length).toBeLessThanOrEqual(1);
          } else {
            expect(result.issues.length).toBeGreaterThan(0);
            for (const issue of result.issues) {
              expect(typeof issue.code).toBe('string');
              expect(typeof issue.message).toBe('string');
              expect(Object.keys(schema.shape)).toContain(issue.path[0]);
            }
          }
        }),
        { numRuns: 2_000 },
      );
      // 2,000 cases take about a second on an idle machine; a generous timeout so a busy one cannot fail them.
    },
    scaled(120_000),
  );
});
