import { deriveProviderStatus } from './board.ts';
import { median } from './cadence.ts';
import type { Provider } from './enums.ts';
import { compareByEffectiveTime, effectiveMs, eventsKnownAt, MS_PER_DAY } from './ordering.ts';
import type { Event } from './schemas.ts';

/**
 * How good the estimate has been: for each past reset, what `nextEstimate` said a moment before it, by the
 * board's own rules applied to what was known then, and how far off it was.
 */

export interface EstimateCheck {
  reset: Event;
  /** The estimate the board showed one millisecond before the reset took effect. */
  estimatedAt: string;
  /** Positive: the reset came later than estimated; negative: earlier. */
  errorDays: number;
}

export interface EstimateTrackRecord {
  checks: EstimateCheck[];
  medianAbsoluteErrorDays: number | null;
}

export function estimateTrackRecord(provider: Provider, events: readonly Event[], now: Date): EstimateTrackRecord {
  const resets = eventsKnownAt(events, now)
    .filter((event) => event.provider === provider && event.kind === 'reset' && effectiveMs(event) <= now.getTime())
    .sort(compareByEffectiveTime);
  const checks = resets.flatMap((reset) => {
    const justBefore = new Date(effectiveMs(reset) - 1);
    const { nextEstimate } = deriveProviderStatus(provider, events, justBefore);
    if (nextEstimate === null) return [];
    return [{ reset, estimatedAt: nextEstimate, errorDays: (effectiveMs(reset) - Date.parse(nextEstimate)) / MS_PER_DAY }];
  });
  return { checks, medianAbsoluteErrorDays: median(checks.map((check) => Math.abs(check.errorDays))) };
}
