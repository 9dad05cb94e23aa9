import { describe, expect, it } from 'vitest';
import { MIXED_REQUESTS, runMixedLoad } from '../scripts/lib/mixed-load.ts';
import { ownServer } from './support/served-site.ts';
import { scaled } from '../scripts/lib/load-scaled.ts';

/**
 * A short sustained mixed load (LOAD_SECONDS, default 3) against a server of its own: no error and no
 * non-2xx answer. Memory is recorded here but judged by `npm run load` (a minute or more): the local runtime's
 * memory climbs for its first ~45 s whatever it serves, so a short window cannot tell a leak from warm-up.
 */

const server = ownServer();

describe('sustained mixed load', () => {
  it(
    'answers every request of the mix without an error',
    async () => {
      const seconds = Number(process.env['LOAD_SECONDS'] ?? 3);
      const result = await runMixedLoad(server(), seconds, 32);
      console.log(
        `load: ${result.requests} requests in ${seconds} s, ${result.requestsPerSecond.toFixed(0)} req/s, p99 ${result.p99Ms} ms, memory MiB ${result.memoryMiB.map((value) => value.toFixed(0)).join(' → ')}`,
      );
      // How many requests fit in the window is the machine's business (npm run load and bench measure it);
      // here it is enough that the whole mix went round at least once.
      expect(result.requests).toBeGreaterThanOrEqual(MIXED_REQUESTS.length);
      expect(result.errors).toBe(0);
      expect(result.non2xx).toBe(0);
    },
    scaled(180_000),
  );
});
