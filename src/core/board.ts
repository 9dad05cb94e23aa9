import { cadenceEstimate, FORECAST_BASIS_GAPS, gapsBetween, MEDIAN_BASIS_RESETS, msToDays } from './cadence.ts';
import { PROVIDERS, type Provider } from './enums.ts';
import { resetsInEffect, summarizeProvider, type ProviderSummary } from './history.ts';
import { effectiveMs, MS_PER_DAY, toIsoTimestamp } from './ordering.ts';
import type { Event, NextEstimate, ProviderStatus, StatusResponse } from './schemas.ts';
import { deriveStatusWord } from './status-word.ts';
import { utcMinute } from './time-format.ts';

/**
 * A provider's cadence at `now`: the summary with the pending resets whose time has come folded in. The one
 * place that folds them, for the board, the estimate and the forecast alike.
 */
export interface CadenceAt {
  nowMs: number;
  lastReset: Event | null;
  recentResets: Event[];
  gapCount: number;
  gapSumMs: number;
  longestGapMs: number | null;
  /** The last (at most 20) gaps, oldest first: the forecast's basis. */
  recentGapsMs: number[];
  /** Resets announced that take effect after `now`, soonest first. */
  stillPending: Event[];
}

export function cadenceAt(summary: ProviderSummary, now: Date): CadenceAt {
  const nowMs = now.getTime();
  const recentResets = [...summary.recentResets];
  const recentGapsMs = [...summary.recentGapsMs];
  let { gapCount, gapSumMs, longestGapMs } = summary;
  const stillPending: Event[] = [];
  for (const reset of summary.pendingResets) {
    if (effectiveMs(reset) > nowMs) {
      stillPending.push(reset);
      continue;
    }
    const previous = recentResets.at(-1);
    if (previous !== undefined) {
      const gap = effectiveMs(reset) - effectiveMs(previous);
      gapCount += 1;
      gapSumMs += gap;
      longestGapMs = Math.max(longestGapMs ?? gap, gap);
      recentGapsMs.push(gap);
    }
    recentResets.push(reset);
  }
  const tail = recentResets.slice(-MEDIAN_BASIS_RESETS);
  return {
    nowMs,
    lastReset: tail.at(-1) ?? null,
    recentResets: tail,
    gapCount,
    gapSumMs,
    longestGapMs,
    recentGapsMs: recentGapsMs.slice(-FORECAST_BASIS_GAPS),
    stillPending,
  };
}

const daysSinceLastReset = ({ lastReset, nowMs }: CadenceAt) =>
  lastReset === null ? null : msToDays(nowMs - effectiveMs(lastReset));

/** A provider's board entry at `now` (≥ the summary's `asOf`): O(10 + pending resets), whatever the history. */
export function statusFromSummary(summary: ProviderSummary, now: Date): ProviderStatus {
  const cadence = cadenceAt(summary, now);
  const estimate = cadenceEstimate(cadence.recentResets.map(effectiveMs));
  return {
    provider: summary.provider,
    daysSince: daysSinceLastReset(cadence),
    status: deriveStatusWord({
      nowMs: cadence.nowMs,
      eventCount: summary.eventCount,
      lastReset: cadence.lastReset,
      latestSignal: summary.latestSignal,
      hasPendingReset: cadence.stillPending.length > 0,
      newestTease: summary.newestTease,
      medianGapMs: estimate?.medianGapMs ?? null,
    }),
    lastReset: cadence.lastReset,
    latestSignal: summary.latestSignal,
    nextEstimate: estimate === null ? null : toIsoTimestamp(estimate.nextMs),
    stats: {
      totalResets: summary.totalResets,
      medianIntervalDays: msToDays(estimate?.medianGapMs ?? null),
      meanIntervalDays: cadence.gapCount === 0 ? null : msToDays(cadence.gapSumMs / cadence.gapCount),
      longestWaitDays: msToDays(cadence.longestGapMs),
      hourHistogramUtc: summary.hourHistogramUtc,
      firstRecordedAt: summary.firstRecordedAt,
    },
  };
}

const ESTIMATE_IS = `A cadence estimate: the last reset plus the median gap between the last ${MEDIAN_BASIS_RESETS} resets. It is not a vendor schedule.`;

/**
 * What the estimate is, and, once its time has passed, that it passed (decisions.md, "One honest answer"): never
 * "any time now", which a provider with a small chance of a reset today would contradict.
 */
export function estimateNote(nextEstimate: string | null, now: Date): string {
  if (nextEstimate === null) return `${ESTIMATE_IS} There is none yet: too few resets to measure a cadence.`;
  if (Date.parse(nextEstimate) > now.getTime()) return ESTIMATE_IS;
  return `${ESTIMATE_IS} It passed on ${utcMinute(nextEstimate)} with no reset since: read it as passed, not as due. For when a reset is likely now, get_forecast gives the chances and the likely window.`;
}

/** One provider's estimate and what it rests on (the MCP tool get_next_estimate). */
export function estimateFromSummary(summary: ProviderSummary, now: Date): NextEstimate {
  const cadence = cadenceAt(summary, now);
  const estimate = cadenceEstimate(cadence.recentResets.map(effectiveMs));
  return {
    provider: summary.provider,
    lastReset: cadence.lastReset,
    daysSince: daysSinceLastReset(cadence),
    nextEstimate: estimate === null ? null : toIsoTimestamp(estimate.nextMs),
    medianIntervalDays: msToDays(estimate?.medianGapMs ?? null),
    sampleSize: estimate?.sampleSize ?? 0,
    note: estimateNote(estimate === null ? null : toIsoTimestamp(estimate.nextMs), now),
  };
}

/** The whole board (spec 2.7) from one summary per provider, in the enumeration's order. */
export const boardFromSummaries = (
  summaries: Readonly<Record<Provider, ProviderSummary>>,
  now: Date,
): StatusResponse => ({
  updatedAt: now.toISOString(),
  providers: PROVIDERS.map((provider) => statusFromSummary(summaries[provider], now)),
});

/**
 * The board of one provider as it stands at `now`, from every event (drafts, events announced after `now`
 * and other providers' events are ignored, so callers may pass the whole data set).
 */
export const deriveProviderStatus = (provider: Provider, events: readonly Event[], now: Date): ProviderStatus =>
  statusFromSummary(summarizeProvider(provider, events, now), now);

export const deriveNextEstimate = (provider: Provider, events: readonly Event[], now: Date): NextEstimate =>
  estimateFromSummary(summarizeProvider(provider, events, now), now);

export const deriveBoard = (events: readonly Event[], now: Date): StatusResponse =>
  boardFromSummaries(
    Object.fromEntries(PROVIDERS.map((provider) => [provider, summarizeProvider(provider, events, now)])) as Record<
      Provider,
      ProviderSummary
    >,
    now,
  );

export interface ResetGap {
  /** The effective time of the reset that ended the gap. */
  endedAt: string;
  days: number;
}

/** The gaps between consecutive resets, oldest first: the series the cadence is measured on. */
export function resetGapSeries(provider: Provider, events: readonly Event[], now: Date): ResetGap[] {
  const resets = resetsInEffect(provider, events, now);
  return gapsBetween(resets.map(effectiveMs)).map((gapMs, index) => ({
    endedAt: toIsoTimestamp(effectiveMs(resets[index + 1]!)),
    days: gapMs / MS_PER_DAY,
  }));
}
