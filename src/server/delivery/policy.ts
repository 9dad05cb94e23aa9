import { MS_PER_DAY } from '../../core/ordering.ts';

/**
 * The delivery path's limits, one set for every channel on it (push, chat webhooks, WebSub: docs/push.md): how often a
 * message is tried, how long to wait between tries, when a failing subscriber is dropped, how long the ledgers keep
 * a row.
 */

/** A subscription failing for this long is dropped (decided). */
export const FAILING_LIMIT_MS = 7 * MS_PER_DAY;
/** Tries of one push to one subscription that keeps answering 429/5xx: 1 + 7 retries, ~2 h of backoff in all. */
export const MAX_DELIVERY_ATTEMPTS = 8;
const RETRY_BASE_SECONDS = 30;
const RETRY_MAX_SECONDS = 3600;

/**
 * Seconds before retry number `attempt` (the next try's number, 2 or more): what the push service asked for in
 * `Retry-After` (within 1 s to 1 h), else 30 s doubling each time, at most 1 h.
 */
export function retryDelaySeconds(attempt: number, retryAfter: number | undefined): number {
  if (retryAfter !== undefined) return Math.min(RETRY_MAX_SECONDS, Math.max(1, retryAfter));
  return Math.min(RETRY_MAX_SECONDS, RETRY_BASE_SECONDS * 2 ** (attempt - 2));
}

/**
 * How long a ledger row is kept: longer than a queue keeps a message (at most 14 days), so that no redelivered
 * message can find its claim gone. The `notifications` claims are kept for good: they alone stop a re-fan-out.
 */
export const LEDGER_KEPT_DAYS = 15;
/** Rows deleted per cron run at most: a bounded statement every minute rather than a rare huge one. */
export const LEDGER_PRUNE_SLICE = 5000;
