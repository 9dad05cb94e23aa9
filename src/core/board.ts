import { gapsBetween, hourHistogramUtc, maximum, mean, median, msToDays, recentGaps } from './cadence.ts';
import { PROVIDERS, type Provider } from './enums.ts';
import {
  announcedMs,
  compareByEffectiveTime,
  compareNewestFirst,
  effectiveMs,
  eventsKnownAt,
  MS_PER_DAY,
  toIsoTimestamp,
} from './ordering.ts';
import type { Event, NextEstimate, ProviderStatus, StatusResponse } from './schemas.ts';
import { deriveStatusWord } from './status-word.ts';

/** What every view of one provider at `now` is derived from: its known events and their cadence. */
interface ProviderFacts {
  nowMs: number;
  newestFirst: Event[];
  resets: Event[];
  lastReset: Event | null;
  /** Resets that have taken effect, oldest first. */
  effectiveResets: Event[];
  gapsMs: number[];
  /** The gaps the median is taken from: those among the last 10 non-pending resets. */
  recentGapsMs: number[];
  medianGapMs: number | null;
  hasPendingReset: boolean;
}

function providerFacts(provider: Provider, events: readonly Event[], now: Date): ProviderFacts {
  const nowMs = now.getTime();
  const newestFirst = eventsKnownAt(events, now)
    .filter((event) => event.provider === provider)
    .sort(compareNewestFirst);
  const resets = newestFirst.filter((event) => event.kind === 'reset');
  const effectiveResets = resets.filter((reset) => effectiveMs(reset) <= nowMs).sort(compareByEffectiveTime);
  const gapsMs = gapsBetween(effectiveResets.map(effectiveMs));
  const recentGapsMs = recentGaps(gapsMs);
  return {
    nowMs,
    newestFirst,
    resets,
    lastReset: effectiveResets.at(-1) ?? null,
    effectiveResets,
    gapsMs,
    recentGapsMs,
    medianGapMs: median(recentGapsMs),
    hasPendingReset: effectiveResets.length < resets.length,
  };
}

const daysSinceLastReset = ({ lastReset, nowMs }: ProviderFacts) =>
  lastReset === null ? null : msToDays(nowMs - effectiveMs(lastReset));

const nextEstimateOf = ({ lastReset, medianGapMs }: ProviderFacts) =>
  lastReset === null || medianGapMs === null ? null : toIsoTimestamp(effectiveMs(lastReset) + medianGapMs);

/**
 * The board of one provider as it stands at `now`, from every event (drafts and other providers'
 * events are ignored here, so callers may pass the whole data set).
 */
export function deriveProviderStatus(provider: Provider, events: readonly Event[], now: Date): ProviderStatus {
  const facts = providerFacts(provider, events, now);
  const { newestFirst, resets, lastReset, gapsMs, medianGapMs } = facts;
  const latestSignal = newestFirst[0] ?? null;
  return {
    provider,
    daysSince: daysSinceLastReset(facts),
    status: deriveStatusWord({
      nowMs: facts.nowMs,
      eventCount: newestFirst.length,
      lastReset,
      latestSignal,
      hasPendingReset: facts.hasPendingReset,
      newestTease: newestFirst.find((event) => event.kind === 'tease') ?? null,
      medianGapMs,
    }),
    lastReset,
    latestSignal,
    nextEstimate: nextEstimateOf(facts),
    stats: {
      totalResets: resets.length,
      medianIntervalDays: msToDays(medianGapMs),
      meanIntervalDays: msToDays(mean(gapsMs)),
      longestWaitDays: msToDays(maximum(gapsMs)),
      hourHistogramUtc: hourHistogramUtc(resets.map(announcedMs)),
      firstRecordedAt: newestFirst.at(-1)?.announcedAt ?? null,
    },
  };
}

export const ESTIMATE_NOTE =
  'A cadence estimate: the last reset plus the median gap between the last 10 resets. It is not a vendor schedule; a time in the past means any time now.';

/** One provider's estimate and what it rests on (the MCP tool get_next_estimate). */
export function deriveNextEstimate(provider: Provider, events: readonly Event[], now: Date): NextEstimate {
  const facts = providerFacts(provider, events, now);
  return {
    provider,
    lastReset: facts.lastReset,
    daysSince: daysSinceLastReset(facts),
    nextEstimate: nextEstimateOf(facts),
    medianIntervalDays: msToDays(facts.medianGapMs),
    sampleSize: facts.recentGapsMs.length,
    note: ESTIMATE_NOTE,
  };
}

export interface ResetGap {
  /** The effective time of the reset that ended the gap. */
  endedAt: string;
  days: number;
}

/** The gaps between consecutive resets, oldest first: the series the cadence is measured on. */
export function resetGapSeries(provider: Provider, events: readonly Event[], now: Date): ResetGap[] {
  const { effectiveResets, gapsMs } = providerFacts(provider, events, now);
  return gapsMs.map((gapMs, index) => ({
    endedAt: toIsoTimestamp(effectiveMs(effectiveResets[index + 1]!)),
    days: gapMs / MS_PER_DAY,
  }));
}

/** The whole board (spec 2.7) at `now`, one entry per provider in the enumeration's order. */
export function deriveBoard(events: readonly Event[], now: Date): StatusResponse {
  return {
    updatedAt: now.toISOString(),
    providers: PROVIDERS.map((provider) => deriveProviderStatus(provider, events, now)),
  };
}
