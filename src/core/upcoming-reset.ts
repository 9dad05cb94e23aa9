import type { ProviderSummary } from './history.ts';
import { forecastFactsFromSummary, judgeForecast } from './forecast/rule.ts';
import { effectiveMs, toIsoTimestamp } from './ordering.ts';
import type { RowFacts } from './board-answer.ts';
import type { Forecast } from './forecast/schemas.ts';
import type { Event, ProviderStatus } from './schemas.ts';
import { type UnconfirmedTease, unconfirmedTeaseOf } from './unconfirmed-tease.ts';

export type { UnconfirmedTease };

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

export function unconfirmedTease(summary: ProviderSummary, now: Date): UnconfirmedTease | null {
  const { newestTease, soonestPending, lastReset, nowMs } = forecastFactsFromSummary(summary, now);
  return unconfirmedTeaseOf({
    newestTease,
    latestSignal: summary.latestSignal,
    lastReset,
    hasPendingReset: soonestPending !== null,
    nowMs,
  });
}

/** A row's facts at `now` for its one answer to "when" (src/core/board-answer.ts), from the provider's summary. */
export function rowFacts(
  summary: ProviderSummary,
  row: ProviderStatus,
  forecast: Forecast | null,
  now: Date,
): RowFacts {
  const vendor = upcomingReset(summary, now);
  return {
    row,
    forecast,
    upcoming: vendor === null ? null : { basis: vendor.basis, at: vendor.at, sourceUrl: vendor.event.sourceUrl },
    unconfirmed: unconfirmedTease(summary, now),
  };
}
