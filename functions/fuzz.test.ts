import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { fixtureFiles } from '../scripts/lib/built-files.ts';
import { edgeApp } from '../scripts/lib/edge-app.ts';
import { ErrorBodySchema } from '../src/core/schemas.ts';
import { makeEvent, NOW, resetsWithGaps } from '../src/core/test-events.ts';
import { forgetLoadedData } from '../src/server/data-source.ts';
import {
  type HostileProbe,
  hostileMcpRequest,
  hostileQuery,
  mcpBatchRequest,
  hostileSegment,
  isOddPathForm,
  QUERY_FUZZ_ROUTES,
  SEGMENT_FUZZ_PREFIXES,
} from '../tests/support/hostile-requests.ts';

/**
 * Hostile requests against every edge route in-process (the worker's own route function over a fixture's
 * built files): every answer is one the spec allows, a 400 carries a valid error body, and nothing is a 5xx
 * or left unanswered. FUZZ_RUNS sets the count per route (`npm run fuzz` runs many more); tests/fuzz.http.test.ts
 * sends a sample of the same over HTTP to workerd, with the pages the edge hands to Astro.
 */

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 400);
const EVENTS = [
  ...resetsWithGaps([7, 8, 6, 9], 2).map((event) => ({ ...event, provider: 'provider_a' as const })),
  makeEvent({ provider: 'provider_b', kind: 'boost', announcedAt: '2026-06-10T08:00:00.000Z' }),
  makeEvent({ provider: 'provider_c', kind: 'tease', announcedAt: '2026-06-14T08:00:00.000Z' }),
];
const app = edgeApp(fixtureFiles(EVENTS, NOW));

interface Probe extends HostileProbe {
  /** Whether the edge may hand the request to Astro's pages (a path under a page route). */
  pagesMayAnswer?: boolean;
}

async function check({ path, init, allowed, maxBodyBytes, pagesMayAnswer = false }: Probe): Promise<void> {
  const label = `${init?.method ?? 'GET'} ${path.slice(0, 200)}`;
  const response = await app.request(path, init, NOW);
  if (response === undefined) {
    expect(pagesMayAnswer, `${label} was handed to the pages`).toBe(true);
    return;
  }
  const body = await response.text();
  expect(allowed, `${label} answered ${response.status}`).toContain(response.status);
  if (maxBodyBytes !== undefined) expect(body.length, label).toBeLessThanOrEqual(maxBodyBytes);
  if (response.status === 400 && !path.startsWith('/mcp'))
    expect(ErrorBodySchema.safeParse(JSON.parse(body)).success, body).toBe(true);
}

async function fuzz(arbitrary: fc.Arbitrary<Probe>, count: number): Promise<number> {
  const probes = fc.sample(arbitrary, count);
  for (const probe of probes) await check(probe);
  return probes.length;
}

beforeEach(() => forgetLoadedData());

describe(`edge routes in-process, fuzzed (${RUNS} requests per route)`, {
  timeout: Math.max(60_000, RUNS * 50),
}, () => {
  it('takes its routes from the table: every edge GET route, the spec’s among them', () => {
    expect(QUERY_FUZZ_ROUTES.map(([path]) => path)).toEqual(
      expect.arrayContaining([
        '/api/status',
        '/api/timeline',
        '/api/timeline.csv',
        '/feed.xml',
        '/api/ics',
        '/index.md',
      ]),
    );
    expect(QUERY_FUZZ_ROUTES).toContainEqual(['/api/timeline', [200, 400]]);
    expect(SEGMENT_FUZZ_PREFIXES.map(([prefix]) => prefix)).toEqual(
      expect.arrayContaining(['/api/status/', '/badge/']),
    );
  });

  it.each(QUERY_FUZZ_ROUTES)('%s with hostile query strings', async (path, allowed) => {
    expect(
      await fuzz(
        hostileQuery.map((query) => ({ path: `${path}?${query}`, allowed })),
        RUNS,
      ),
    ).toBe(RUNS);
  });

  it.each([
    ...SEGMENT_FUZZ_PREFIXES.map(([prefix, allowed]) => [prefix, allowed, false] as const),
    ['/', [200, 404], true] as const,
    ['/zh/', [200, 404], true] as const,
  ])('%s<segment> with hostile provider names', async (prefix, allowed, pagesMayAnswer) => {
    // A segment such as `%2e%2e` leaves the prefix once the URL is parsed: that path is a page's, as over HTTP.
    const leavesPrefix = (path: string) => !new URL(path, 'http://localhost').pathname.startsWith(prefix);
    const probes = hostileSegment.map((segment) => {
      const path = `${prefix}${segment}`;
      return {
        path,
        allowed: isOddPathForm(path) ? [...allowed, 308, 404] : [...allowed],
        pagesMayAnswer: pagesMayAnswer || leavesPrefix(path),
      };
    });
    expect(await fuzz(probes, RUNS)).toBe(RUNS);
  });

  it('POST /mcp with hostile bodies and content types', async () => {
    expect(await fuzz(hostileMcpRequest(), RUNS)).toBe(RUNS);
  });

  it('POST /mcp with batches around 20 messages, of 100, nested and mixed', async () => {
    expect(await fuzz(mcpBatchRequest(), RUNS)).toBe(RUNS);
  });

  it.each(['PUT', 'DELETE', 'PATCH', 'POST'])('%s on the read API is 405, not a 5xx', async (method) => {
    await check({ path: '/api/timeline', init: { method }, allowed: [405] });
    await check({ path: '/feed.xml', init: { method }, allowed: [405] });
  });
});
