import { RATE_LIMIT_PERIOD_SECONDS } from '../../src/server/http/rate-limit.ts';

/**
 * The Workers Rate Limiting binding counts per fixed window of its period (locally: aligned to the Unix epoch,
 * src/server/http/rate-limit.ts). A burst that crosses a window's end starts a new count half-way and proves
 * nothing either way, so it is run again (from a fresh client address, which `burst` takes itself); a burst
 * takes seconds, so the second try stays within its window. Returns the first burst that stayed in one window.
 */
export async function burstInOneWindow<T>(burst: () => Promise<T>, tries = 3): Promise<T> {
  const windowOf = (ms: number) => Math.floor(ms / (RATE_LIMIT_PERIOD_SECONDS * 1000));
  for (let attempt = 1; ; attempt += 1) {
    const started = Date.now();
    const result = await burst();
    if (windowOf(started) === windowOf(Date.now())) return result;
    if (attempt >= tries) throw new Error(`${tries} bursts in a row crossed a rate-limit window's end`);
  }
}
