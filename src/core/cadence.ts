import { MS_PER_DAY } from './ordering.ts';

/**
 * Cadence arithmetic, kept in whole milliseconds so that boundaries such as "exactly 1.5 times the
 * median" compare exactly; days appear only at the edge of the core, in the published numbers.
 */

/** The number of most recent resets whose gaps feed the median (and so `nextEstimate`). */
export const MEDIAN_BASIS_RESETS = 10;

/** The number of most recent gaps the forecast's probabilities are counted over (decisions.md, "Forecast"). */
export const FORECAST_BASIS_GAPS = 20;

/** Fewer gaps than this and there is no forecast (`insufficient`). */
export const MIN_FORECAST_GAPS = 5;

export const gapsBetween = (ascendingTimesMs: readonly number[]): number[] =>
  ascendingTimesMs.slice(1).map((time, index) => time - ascendingTimesMs[index]!);

/** The gaps among the last `MEDIAN_BASIS_RESETS` resets: at most nine of them. */
export const recentGaps = (gapsMs: readonly number[]): number[] => gapsMs.slice(-(MEDIAN_BASIS_RESETS - 1));

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export const msToDays = (ms: number | null): number | null => (ms === null ? null : ms / MS_PER_DAY);

export function hourHistogramUtc(timesMs: readonly number[]): number[] {
  const histogram = new Array<number>(24).fill(0);
  for (const time of timesMs) {
    const hour = new Date(time).getUTCHours();
    histogram[hour] = (histogram[hour] ?? 0) + 1;
  }
  return histogram;
}

export interface CadenceEstimate {
  medianGapMs: number;
  nextMs: number;
  /** How many gaps the median was taken from. */
  sampleSize: number;
}

/**
 * The one rule of the estimate: the last reset plus the median gap among the last 10 resets. Takes effective
 * times in ascending order; null with fewer than two resets.
 */
export function cadenceEstimate(effectiveTimesMs: readonly number[]): CadenceEstimate | null {
  const gaps = recentGaps(gapsBetween(effectiveTimesMs));
  const medianGapMs = median(gaps);
  const last = effectiveTimesMs.at(-1);
  return medianGapMs === null || last === undefined
    ? null
    : { medianGapMs, nextMs: last + medianGapMs, sampleSize: gaps.length };
}
