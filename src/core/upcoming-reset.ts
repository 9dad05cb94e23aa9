import type { ProviderSummary } from './history.ts';
import { forecastFactsFromSummary, judgeForecast } from './forecast/rule.ts';
import { announcedMs, effectiveMs, toIsoTimestamp } from './ordering.ts';
import type { Event } from './schemas.ts';
import { teaseIsLive } from './status-word.ts';

/**
 * The best word there is on a provider's next reset, before any estimate: a reset the vendor has announced for a
 * later time, or a live tease naming one. The same rule as the forecast's `announced`/`teased` bases
 * (forecast/rule.ts), so the board and the forecast never disagree; null when only the cadence estimate is left.
 */
export interface UpcomingReset {
  basis: 'announced' | 'teased';
  /** When the vendor says it takes effect (UTC). */
  at: string;
  /** The announcement or tease: its sourceUrl is the post to link. */
  event: Event;
}

export function upcomingReset(summary: ProviderSummary, now: Date): UpcomingReset | null {
  const facts = forecastFactsFromSummary(summary, now);
  const judgement = judgeForecast(facts);
  const event =
    judgement.basis === 'announced' ? facts.soonestPending : judgement.basis === 'teased' ? facts.newestTease : null;
  if (event === null || (judgement.basis !== 'announced' && judgement.basis !== 'teased')) return null;
  return { basis: judgement.basis, at: toIsoTimestamp(effectiveMs(event)), event };
}

/**
 * A live tease (the status rule's, status-word.ts) that names no time still ahead: the time it named has passed,
 * or it named none, and no reset is on record since it was posted (none announced for later either). Its row
 * says so ("teased for <time> · not confirmed yet"), so that the status word "Teased" never stands alone for a
 * tease whose moment came and went (decisions.md, "The board on a phone"). An announced reset needs no such
 * line: once its time comes, the announcement itself is the reset on record.
 */
export interface UnconfirmedTease {
  /** The time the tease named (UTC), now past; null when it named none. */
  at: string | null;
  /** The tease: its sourceUrl is the post to link. */
  event: Event;
}

export function unconfirmedTease(summary: ProviderSummary, now: Date): UnconfirmedTease | null {
  const { newestTease: tease, soonestPending, lastReset, nowMs } = forecastFactsFromSummary(summary, now);
  if (tease === null || soonestPending !== null || !teaseIsLive(tease, lastReset, nowMs)) return null;
  if (lastReset !== null && effectiveMs(lastReset) >= announcedMs(tease)) return null;
  if (tease.effectiveAt !== null && effectiveMs(tease) > nowMs) return null;
  return { at: tease.effectiveAt === null ? null : toIsoTimestamp(effectiveMs(tease)), event: tease };
}
