/**
 * When a confirmed event's commit that did not land is tried again (decisions.md, "Confirmed within a minute": "A
 * failed commit is retried by the cron until it lands"): the minute cron's next run first, then doubling up to 30
 * minutes, for as long as it fails, a 401 or 404 as much as a 503 (the operator may fix the token days later, and
 * the file still belongs in git). A `Retry-After` (or a rate limit's reset) is honoured instead, up to the same 30
 * minutes.
 */

export const COMMIT_RETRY_FIRST_MS = 60_000;
export const COMMIT_RETRY_MAX_MS = 30 * 60_000;

/** The wait after the `failures`-th failed try in a row (1 or more): 1, 2, 4, 8, 16, then 30 minutes. */
export function commitRetryMs(failures: number, retryAfterSeconds?: number): number {
  if (retryAfterSeconds !== undefined)
    return Math.min(Math.max(COMMIT_RETRY_FIRST_MS, Math.max(0, retryAfterSeconds) * 1000), COMMIT_RETRY_MAX_MS);
  const doublings = Math.min(Math.max(0, failures - 1), 16);
  return Math.min(COMMIT_RETRY_FIRST_MS * 2 ** doublings, COMMIT_RETRY_MAX_MS);
}
