import { gapsBetween, hourHistogramUtc, maximum, mean, median, msToDays, recentGaps } from './cadence.ts';
import { PROVIDERS, type Provider } from './enums.ts';
import {
  announcedMs,
  compareByEffectiveTime,
  compareNewestFirst,
  effectiveMs,
  eventsKnownAt,
  toIsoTimestamp,
} from './ordering.ts';
import type { Event, ProviderStatus, StatusResponse } from './schemas.ts';
import { deriveStatusWord } from './status-word.ts';

/**
 * The board of one provider as it stands at `now`, from every event (drafts and other providers'
 * events are ignored here, so callers may pass the whole data set).
 */
export function deriveProviderStatus(provider: Provider, events: readonly Event[], now: Date): ProviderStatus {
  const nowMs = now.getTime();
  const known = eventsKnownAt(events, now).filter((event) => event.provider === provider);
  const newestFirst = known.sort(compareNewestFirst);
  const resets = newestFirst.filter((event) => event.kind === 'reset');
  const effectiveResets = resets.filter((reset) => effectiveMs(reset) <= nowMs).sort(compareByEffectiveTime);
  const lastReset = effectiveResets.at(-1) ?? null;

  const gapsMs = gapsBetween(effectiveResets.map(effectiveMs));
  const medianGapMs = median(recentGaps(gapsMs));
  const oldest = newestFirst.at(-1);

  return {
    provider,
    daysSince: lastReset === null ? null : msToDays(nowMs - effectiveMs(lastReset)),
    status: deriveStatusWord({
      nowMs,
      eventCount: newestFirst.length,
      lastReset,
      latestSignal: newestFirst[0] ?? null,
      hasPendingReset: effectiveResets.length < resets.length,
      newestTease: newestFirst.find((event) => event.kind === 'tease') ?? null,
      medianGapMs,
    }),
    lastReset,
    latestSignal: newestFirst[0] ?? null,
    nextEstimate: lastReset === null || medianGapMs === null ? null : toIsoTimestamp(effectiveMs(lastReset) + medianGapMs),
    stats: {
      totalResets: resets.length,
      medianIntervalDays: msToDays(medianGapMs),
      meanIntervalDays: msToDays(mean(gapsMs)),
      longestWaitDays: msToDays(maximum(gapsMs)),
      hourHistogramUtc: hourHistogramUtc(resets.map(announcedMs)),
      firstRecordedAt: oldest === undefined ? null : oldest.announcedAt,
    },
  };
}

/** The whole board (spec 2.7) at `now`, one entry per provider in the enumeration's order. */
export function deriveBoard(events: readonly Event[], now: Date): StatusResponse {
  return {
    updatedAt: now.toISOString(),
    providers: PROVIDERS.map((provider) => deriveProviderStatus(provider, events, now)),
  };
}
