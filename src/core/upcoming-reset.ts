import type { ProviderSummary } from './history.ts';
import { forecastFactsFromSummary, judgeForecast } from './forecast/rule.ts';
import { effectiveMs, toIsoTimestamp } from './ordering.ts';
import type { Event } from './schemas.ts';

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
