import { cadenceEstimate, median, MEDIAN_BASIS_RESETS } from './cadence.ts';
import type { Provider } from './enums.ts';
import { resetsInEffect } from './history.ts';
import { effectiveMs, MS_PER_DAY, toIsoTimestamp } from './ordering.ts';
import type { Event } from './schemas.ts';

/**
 * How good the estimate has been: for each past reset, what `nextEstimate` said a moment before it took
 * effect, by the estimate's own rule (cadence.ts) applied to the resets in effect then, and how far off it
 * was. One pass over the resets in effect, so it stays cheap for long histories.
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
  const resets = resetsInEffect(provider, events, now);
  const times = resets.map(effectiveMs);
  const checks: EstimateCheck[] = [];
  // `before` counts the resets in effect strictly before the current one (ties take effect together).
  let before = 0;
  for (const [index, reset] of resets.entries()) {
    while (times[before]! < times[index]!) before += 1;
    const estimate = cadenceEstimate(times.slice(Math.max(0, before - MEDIAN_BASIS_RESETS), before));
    if (estimate === null) continue;
    checks.push({
      reset,
      estimatedAt: toIsoTimestamp(estimate.nextMs),
      errorDays: (times[index]! - estimate.nextMs) / MS_PER_DAY,
    });
  }
  return { checks, medianAbsoluteErrorDays: median(checks.map((check) => Math.abs(check.errorDays))) };
}
