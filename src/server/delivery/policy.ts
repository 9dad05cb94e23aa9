import { MS_PER_DAY } from '../../core/ordering.ts';

/**
 * The delivery wing's limits, one set for every channel (docs/delivery.md, "The promise"): how long a delivery is
 * tried, how long to wait between tries, how long a queue message or a sender holds its deliveries, when a failing
 * subscriber is dropped, how much one invocation does, how long the ledger keeps a row.
 */

const MS_PER_MINUTE = 60_000;

/** A delivery is tried until this long after the service found its transition; then it is recorded as expired. */
export const DELIVERY_WINDOW_MS = MS_PER_DAY;
/** A subscriber whose deliveries have failed for this long without one success is dropped (decided). */
export const FAILING_LIMIT_MS = 7 * MS_PER_DAY;

const RETRY_BASE_SECONDS = 30;
const RETRY_MAX_SECONDS = 60 * 60;
/** The longest `Retry-After` honoured as asked; a longer one is capped here (the window still ends the tries). */
const RETRY_AFTER_MAX_SECONDS = 6 * 60 * 60;

/**
 * Seconds before the next try after `failures` failed tries (1 or more): what the receiver asked for in
 * `Retry-After` (at least 1 s, at most 6 h), else 30 s doubling each time, at most an hour. A retry is recorded
 * with its due time; the first cron run at or after it queues it (docs/delivery.md, "One clock").
 */
export function retryDelaySeconds(failures: number, retryAfter: number | undefined): number {
  if (retryAfter !== undefined) return Math.min(RETRY_AFTER_MAX_SECONDS, Math.max(1, Math.ceil(retryAfter)));
  return Math.min(RETRY_MAX_SECONDS, RETRY_BASE_SECONDS * 2 ** Math.max(0, failures - 1));
}

/**
 * How long a queued message holds its deliveries or its fan-out: past that, the cron takes it as lost (a message
 * that exhausted its retries, a queue that refused it) and queues the work again. A message that arrives later
 * finds its hold gone and sends nothing.
 */
export const QUEUED_LEASE_MS = 5 * MS_PER_MINUTE;
/** How long a sender holds what it claimed: an isolate that died while sending leaves it to the cron after this. */
export const SENDING_LEASE_MS = 2 * MS_PER_MINUTE;

/**
 * A retry that would fall past a delivery's window is made once more this long before the window ends (the last cron
 * minute in it), so that the tries go on until the 24 hours end (decisions.md) and a receiver back in the last hour is
 * still sent to; only a try that fails then, or later, expires the delivery.
 */
export const LAST_TRY_BEFORE_END_MS = MS_PER_MINUTE;

/** A retry due within this long is also carried by the queue, with a delay (deliver.ts); the cron queues all. */
export const QUEUE_CARRIED_RETRY_MS = MS_PER_MINUTE;

/** Subscribers read per fan-out message (one indexed read, one insert of their deliveries). */
export const FANOUT_PAGE_SIZE = 1000;
/** Subscribers per `deliver` message: a consumer batch of 100 messages makes at most 1,000 requests. */
export const DELIVER_CHUNK_SIZE = 10;
/** Deliveries the cron queues again per run at most (a bounded statement every minute). */
export const REQUEUE_PER_RUN = 10_000;

/**
 * How long a finished ledger row is kept: longer than a queue keeps a message (at most 14 days), so that no
 * redelivered message can find its row gone. The `notifications` claims are kept for good: they alone stop a
 * second fan-out.
 */
export const LEDGER_KEPT_DAYS = 15;
/** Rows deleted per cron run at most. */
export const LEDGER_PRUNE_SLICE = 5000;
