import type { SourceCheck } from '../sources.ts';

/**
 * Polite polling (decisions.md, "Watched every minute, reviewed at once"): what the watcher remembers of each
 * feed between runs, and the rules it follows with it. Each source is asked at most once a minute, with the
 * validators of its last answer (`If-None-Match`, `If-Modified-Since`), and after a failure it is left alone for
 * a while that doubles with each further failure, up to 30 minutes.
 */

/** A source is asked at most once in this long (the cron runs every minute). */
export const POLL_INTERVAL_MS = 60_000;
/** The longest wait after failures: the doubling stops here. */
export const BACKOFF_MAX_MS = 30 * 60_000;

export interface PollState {
  /** The validators of the last answer that carried a readable feed (null: none given, or never answered). */
  etag: string | null;
  lastModified: string | null;
  /** When the source was last asked. */
  polledAt: string | null;
  /** Failures in a row; 0 after an answer. */
  failures: number;
  /** Not asked before this time (backing off after failures); null when not backing off. */
  retryAt: string | null;
  /** The source's last line of the source report; null before its first poll. */
  lastCheck: SourceCheck | null;
  /** Posts in the last readable answer: what an unchanged feed (304) still holds. */
  items: number;
  /**
   * Keys of the feed's posts whose outcome is final (not relevant, proposed as a draft, already recorded): never
   * looked at again. A post skipped for a reason someone can fix is left out, so it is tried again.
   */
  seen: readonly string[];
}

export const FIRST_POLL: PollState = {
  etag: null,
  lastModified: null,
  polledAt: null,
  failures: 0,
  retryAt: null,
  lastCheck: null,
  items: 0,
  seen: [],
};

/** After `failures` failures in a row: 2, 4, 8, 16, then 30 minutes (so the next minute's run never asks). */
export function backoffMs(failures: number): number {
  if (failures <= 0) return 0;
  return Math.min(POLL_INTERVAL_MS * 2 ** Math.min(failures, 16), BACKOFF_MAX_MS);
}

export type PollVerdict = { due: true } | { due: false; reason: 'asked_this_minute' | 'backing_off'; until: string };

/** Whether the source may be asked at `now`, and if not, until when it waits. */
export function pollVerdict(state: PollState, now: Date): PollVerdict {
  const at = now.getTime();
  if (state.retryAt !== null && at < Date.parse(state.retryAt))
    return { due: false, reason: 'backing_off', until: state.retryAt };
  if (state.polledAt !== null) {
    const next = Date.parse(state.polledAt) + POLL_INTERVAL_MS;
    if (at < next) return { due: false, reason: 'asked_this_minute', until: new Date(next).toISOString() };
  }
  return { due: true };
}

/** The conditional request's headers: the validators the source gave with its last readable answer. */
export function validatorHeaders(state: PollState): Record<string, string> {
  const headers: Record<string, string> = {};
  if (state.etag !== null) headers['If-None-Match'] = state.etag;
  if (state.lastModified !== null) headers['If-Modified-Since'] = state.lastModified;
  return headers;
}
