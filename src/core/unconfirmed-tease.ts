import { announcedMs, effectiveMs, toIsoTimestamp } from './ordering.ts';
import type { Event } from './schemas.ts';
import { teaseIsLive } from './status-word.ts';

/**
 * A tease whose time has passed (or that named none) with no reset after it (decisions.md, "One honest answer"):
 * its row says so ("teased for <time> · not confirmed") for as long as it is the latest signal, whatever its age,
 * and while it is live (the status rule's, status-word.ts) even when a later signal of another kind came after it.
 * So the status word "Teased", or a "Waiting" under an old tease, never stands alone for a tease whose moment came
 * and went. An announced reset needs no such line: once its time comes, the announcement itself is the reset on
 * record; while one is pending, the row leads with it instead.
 */
export interface UnconfirmedTease {
  /** The time the tease named (UTC), now past; null when it named none. */
  at: string | null;
  /** The tease: its sourceUrl is the post to link. */
  event: Event;
}

/**
 * What the rule reads. The build and the edge have every fact from the provider's summary; the page script, which
 * keeps a row current from `/api/status` and `/api/forecast`, knows the newest tease only when it is the latest
 * signal (src/core/board-answer.ts).
 */
export interface TeaseFacts {
  newestTease: Event | null;
  latestSignal: Event | null;
  lastReset: Event | null;
  hasPendingReset: boolean;
  nowMs: number;
}

export function unconfirmedTeaseOf(facts: TeaseFacts): UnconfirmedTease | null {
  const { newestTease: tease, latestSignal, lastReset, nowMs } = facts;
  if (tease === null || facts.hasPendingReset) return null;
  if (latestSignal?.id !== tease.id && !teaseIsLive(tease, lastReset, nowMs)) return null;
  if (lastReset !== null && effectiveMs(lastReset) >= announcedMs(tease)) return null;
  if (tease.effectiveAt !== null && effectiveMs(tease) > nowMs) return null;
  return { at: tease.effectiveAt === null ? null : toIsoTimestamp(effectiveMs(tease)), event: tease };
}
