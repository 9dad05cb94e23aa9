import fc from 'fast-check';
import { describe, expect, inject, it } from 'vitest';
import { ErrorBodySchema } from '../src/core/schemas.ts';
import { uniqueClientIp } from './support/client-ip.ts';
import { scaled } from '../scripts/lib/load-scaled.ts';
import {
  type HostileProbe,
  hostileMcpRequest,
  hostileQuery,
  mcpBatchRequest,
  hostileSegment,
  isOddPathForm,
  QUERY_FUZZ_ROUTES,
  SEGMENT_FUZZ_PREFIXES,
} from './support/hostile-requests.ts';

/**
 * Hostile requests against the served worker: every answer is one the spec allows, a 400 carries a valid
 * error body, and nothing is a 5xx. The bulk runs in-process (functions/fuzz.test.ts, 400 per route); here a
 * sample goes through workerd (its URL parsing, the pages Astro answers, the common headers). FUZZ_RUNS sets
 * the count per endpoint (`npm run fuzz` runs many more, here and in-process).
 * No latency is asserted here: on a shared machine that would test the machine; `npm run bench` measures it.
 */

const baseUrl = inject('baseUrl');
const RUNS = Number(process.env['FUZZ_RUNS'] ?? 40);
const CONCURRENCY = 8;

async function check({ path, init, allowed, maxBodyBytes }: HostileProbe): Promise<void> {
  // A hang guard only (a request that never answers would otherwise hold the test until its timeout).
  const response = await fetch(`${baseUrl}${path}`, {
    redirect: 'manual',
    ...init,
    signal: AbortSignal.timeout(scaled(30_000)),
  });
  const body = await response.text();
  expect(allowed, `${init?.method ?? 'GET'} ${path.slice(0, 200)} answered ${response.status}`).toContain(
    response.status,
  );
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
  if (maxBodyBytes !== undefined) expect(body.length, path).toBeLessThanOrEqual(maxBodyBytes);
  if (response.status === 400 && !path.startsWith('/mcp'))
    expect(ErrorBodySchema.safeParse(JSON.parse(body)).success, body).toBe(true);
}

/** Runs `count` probes drawn from `arbitrary`, a few at a time. */
async function fuzz(arbitrary: fc.Arbitrary<HostileProbe>, count: number): Promise<number> {
  const probes = fc.sample(arbitrary, count);
  for (let start = 0; start < probes.length; start += CONCURRENCY) {
    await Promise.all(probes.slice(start, start + CONCURRENCY).map(check));
  }
  return probes.length;
}

/** The table's edge GET routes (hostile-requests.ts), and pages that read a query. */
const QUERY_ENDPOINTS: (readonly [string, readonly number[]])[] = [
  ...QUERY_FUZZ_ROUTES,
  ['/tracker', [200]],
  ['/', [200]],
];

// Generous, and growing with the run count: a busy machine may be slow, never wrong.
const TIMEOUT_MS = Math.max(180_000, RUNS * 200);

describe(`HTTP fuzzing (${RUNS} requests per endpoint)`, { timeout: TIMEOUT_MS }, () => {
  it.each(QUERY_ENDPOINTS)('%s with hostile query strings', async (path, allowed) => {
    expect(
      await fuzz(
        hostileQuery.map((query) => ({ path: `${path}?${query}`, allowed })),
        RUNS,
      ),
    ).toBe(RUNS);
  });

  it.each([...SEGMENT_FUZZ_PREFIXES, ['/', [200, 404]] as const, ['/zh/', [200, 404]] as const])(
    '%s<segment> with hostile provider names',
    async (prefix, allowed) => {
      const probes = hostileSegment.map((segment) => {
        const path = `${prefix}${segment}`;
        return { path, allowed: isOddPathForm(path) ? [...allowed, 308, 404] : allowed };
      });
      expect(await fuzz(probes, RUNS)).toBe(RUNS);
    },
  );

  it('POST /mcp with hostile bodies and content types', async () => {
    expect(
      await fuzz(
        hostileMcpRequest(() => ({ 'CF-Connecting-IP': uniqueClientIp() })),
        RUNS,
      ),
    ).toBe(RUNS);
  });

  it('POST /mcp with batches around 20 messages, of 100, nested and mixed', async () => {
    // Each probe from an address of its own: a batch of 20 spends a third of that address's minute.
    expect(
      await fuzz(
        mcpBatchRequest(() => ({ 'CF-Connecting-IP': uniqueClientIp() })),
        RUNS,
      ),
    ).toBe(RUNS);
  });

  it.each(['PUT', 'DELETE', 'PATCH', 'POST'])('%s on the read API is 405, not a 5xx', async (method) => {
    await check({ path: '/api/timeline', init: { method }, allowed: [405] });
    await check({ path: '/feed.xml', init: { method }, allowed: [405] });
  });
});
