import type { BoardStatus } from './enums.ts';
import { announcedMs, effectiveMs, MS_PER_DAY } from './ordering.ts';
import type { Event } from './schemas.ts';

/** What the status word is decided from; every field is already computed for one provider at `nowMs`. */
export interface StatusFacts {
  nowMs: number;
  eventCount: number;
  lastReset: Event | null;
  latestSignal: Event | null;
  hasPendingReset: boolean;
  newestTease: Event | null;
  medianGapMs: number | null;
}

export const RESET_NOW_WINDOW_MS = MS_PER_DAY;
export const TEASE_FRESHNESS_MS = 7 * MS_PER_DAY;
/** Overdue past this multiple of the recent median gap. Written as a fraction to compare exactly. */
const OVERDUE_NUMERATOR = 3;
const OVERDUE_DENOMINATOR = 2;
/** The same threshold as a number, for charts and words (the rule itself compares the fraction exactly). */
export const OVERDUE_FACTOR = OVERDUE_NUMERATOR / OVERDUE_DENOMINATOR;

/** Whether a tease still says something: newer than the last reset, and fresh or pointing ahead (the status rule; the forecast reuses it). */
export function teaseIsLive(tease: Event, lastReset: Event | null, nowMs: number): boolean {
  const newerThanLastReset = lastReset === null || announcedMs(tease) > announcedMs(lastReset);
  const fresh = nowMs - announcedMs(tease) < TEASE_FRESHNESS_MS;
  const pointsAhead = tease.effectiveAt !== null && effectiveMs(tease) > nowMs;
  return newerThanLastReset && (fresh || pointsAhead);
}

/** The board status word: the first rule that holds wins (decisions.md, "status"). */
export function deriveStatusWord(facts: StatusFacts): BoardStatus {
  const { nowMs, lastReset, medianGapMs } = facts;
  if (facts.eventCount === 0) return 'no_data';
  const elapsedMs = lastReset === null ? null : nowMs - effectiveMs(lastReset);
  if (elapsedMs !== null && elapsedMs < RESET_NOW_WINDOW_MS) return 'reset_now';
  if (facts.hasPendingReset) return 'tease';
  if (facts.newestTease !== null && teaseIsLive(facts.newestTease, lastReset, nowMs)) return 'tease';
  if (facts.latestSignal?.kind === 'banked') return 'banked';
  if (elapsedMs !== null && medianGapMs !== null && elapsedMs * OVERDUE_DENOMINATOR > medianGapMs * OVERDUE_NUMERATOR) {
    return 'overdue';
  }
  return 'waiting';
}
