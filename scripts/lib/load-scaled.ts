import { availableParallelism, loadavg } from 'node:os';

/**
 * How much longer than on an idle machine a wait may take now: the load average of the last minute per core, at
 * least 1 and at most MAX_FACTOR. `TEST_WAIT_SCALE=<n>` sets it instead (a slower machine or a debugger).
 *
 * For hang guards only, never for a timing check: a wait for a server, a page, a queue or a build is given its
 * idle limit times this factor, so that a busy machine (other builds, busy loops, a load average of 8 on 2 cores)
 * makes a test slower, not failed. Read at each call: the load changes during a run.
 */
const MAX_FACTOR = 6;

export function loadFactor(): number {
  const forced = Number(process.env['TEST_WAIT_SCALE']);
  if (Number.isFinite(forced) && forced > 0) return forced;
  const perCore = (loadavg()[0] ?? 0) / availableParallelism();
  return Math.min(MAX_FACTOR, Math.max(1, perCore));
}

/** `ms` (the limit on an idle machine) scaled by the machine's load now: a hang guard that does not race. */
export const scaled = (ms: number): number => Math.round(ms * loadFactor());

/** `promise`, or a rejection saying `what` after `timeoutMs` scaled by the machine's load: a hang guard. */
export async function withinScaled<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = scaled(timeoutMs);
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${limit} ms`)), limit);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
