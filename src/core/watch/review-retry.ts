/**
 * When a review message that was not sent is tried again (decisions.md, "Operable": retried until it is sent, with
 * a backoff up to 30 minutes). Every answer that is not a success counts, a 404 or 401 as much as a 503 or no
 * answer: the reviewer may fix the channel days later, and the message then goes. There is no last try.
 */

/** The first wait: the cron runs every minute, so the next minute's run tries again. */
export const REVIEW_RETRY_FIRST_MS = 60_000;
/** The longest wait between two tries: the doubling stops here, and so does a longer `Retry-After`. */
export const REVIEW_RETRY_MAX_MS = 30 * 60_000;

/**
 * The wait after the `failures`-th failed try in a row (1 or more): 1, 2, 4, 8, 16, then 30 minutes for as long as
 * it fails. `retryAfterSeconds`, when the platform asked for a wait (429 or 5xx with `Retry-After`, or Discord's
 * `retry_after`), is honoured instead, up to the same 30 minutes.
 */
export function reviewRetryMs(failures: number, retryAfterSeconds?: number): number {
  if (retryAfterSeconds !== undefined) return Math.min(Math.max(0, retryAfterSeconds) * 1000, REVIEW_RETRY_MAX_MS);
  const doublings = Math.min(Math.max(0, failures - 1), 16);
  return Math.min(REVIEW_RETRY_FIRST_MS * 2 ** doublings, REVIEW_RETRY_MAX_MS);
}

/**
 * What a failed try stores and logs: the platform's status, or that it did not answer, and never the webhook's
 * address, which is a secret (its token is in its path). `status` 0 is no answer.
 */
export function reviewFailureText(status: number, reason: string, webhook: string): string {
  if (status !== 0) return `answered HTTP ${status}`;
  let text = reason;
  let path = '';
  try {
    path = new URL(webhook).pathname;
  } catch {
    // Not a URL: only the whole string is hidden.
  }
  for (const secret of [webhook, path]) if (secret.length > 1) text = text.split(secret).join('<REVIEW_WEBHOOK_URL>');
  return text;
}
