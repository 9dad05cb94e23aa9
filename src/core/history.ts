import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';
import { FORECAST_BASIS_GAPS, gapsBetween, hourHistogramUtc, MEDIAN_BASIS_RESETS } from './cadence.ts';
import { ProviderSchema, type Provider } from './enums.ts';
import { announcedMs, compareByEffectiveTime, compareNewestFirst, effectiveMs, eventsKnownAt } from './ordering.ts';
import { EventSchema, UtcTimestampSchema, type Event } from './schemas.ts';

/**
 * A provider's history reduced to what the board needs: the last 10 resets in effect, running gap totals,
 * the last 20 gaps (the forecast's basis), the resets still pending, and a few single events. Built once
 * from every event at `asOf` (at build time, from the whole history), it answers the board and the
 * forecast for any later `now` without the history: pending resets that have since taken effect are
 * folded in (board.ts, cadenceAt). Its schema is made on first use (src/core/lazy-schema.ts): the build checks
 * its files with it, the worker trusts them.
 */
export const ProviderSummarySchema = lazySchema(() =>
  z.strictObject({
    provider: ProviderSchema,
    asOf: UtcTimestampSchema,
    eventCount: z.int().nonnegative(),
    latestSignal: EventSchema.nullable(),
    newestTease: EventSchema.nullable(),
    firstRecordedAt: UtcTimestampSchema.nullable(),
    totalResets: z.int().nonnegative(),
    hourHistogramUtc: z.array(z.int().nonnegative()).length(24),
    /** The last (at most 10) resets in effect at `asOf`, oldest first. */
    recentResets: z.array(EventSchema).max(MEDIAN_BASIS_RESETS),
    gapCount: z.int().nonnegative(),
    gapSumMs: z.number().nonnegative(),
    longestGapMs: z.number().nonnegative().nullable(),
    /** The last (at most 20) gaps between resets in effect at `asOf`, oldest first: the forecast's basis. */
    recentGapsMs: z.array(z.number().nonnegative()).max(FORECAST_BASIS_GAPS),
    /** Resets announced by `asOf` that take effect after it, soonest first. */
    pendingResets: z.array(EventSchema),
  }),
);
export type ProviderSummary = z.infer<typeof ProviderSummarySchema>;

/** The provider's resets in effect at `now` (known, published, their time come), oldest first by effective time. */
export const resetsInEffect = (provider: Provider, events: readonly Event[], now: Date): Event[] =>
  eventsKnownAt(events, now)
    .filter((event) => event.provider === provider && event.kind === 'reset' && effectiveMs(event) <= now.getTime())
    .sort(compareByEffectiveTime);

export function summarizeProvider(provider: Provider, events: readonly Event[], asOf: Date): ProviderSummary {
  const asOfMs = asOf.getTime();
  const newestFirst = eventsKnownAt(events, asOf)
    .filter((event) => event.provider === provider)
    .sort(compareNewestFirst);
  const resets = newestFirst.filter((event) => event.kind === 'reset');
  const inEffect = resetsInEffect(provider, events, asOf);
  const gapsMs = gapsBetween(inEffect.map(effectiveMs));
  return {
    provider,
    asOf: asOf.toISOString(),
    eventCount: newestFirst.length,
    latestSignal: newestFirst[0] ?? null,
    newestTease: newestFirst.find((event) => event.kind === 'tease') ?? null,
    firstRecordedAt: newestFirst.at(-1)?.announcedAt ?? null,
    totalResets: resets.length,
    hourHistogramUtc: hourHistogramUtc(resets.map(announcedMs)),
    recentResets: inEffect.slice(-MEDIAN_BASIS_RESETS),
    gapCount: gapsMs.length,
    gapSumMs: gapsMs.reduce((sum, gap) => sum + gap, 0),
    // A reduce, not Math.max(...gaps): a long history must not overflow the call's argument list.
    longestGapMs: gapsMs.length === 0 ? null : gapsMs.reduce((longest, gap) => Math.max(longest, gap)),
    recentGapsMs: gapsMs.slice(-FORECAST_BASIS_GAPS),
    pendingResets: resets.filter((reset) => effectiveMs(reset) > asOfMs).sort(compareByEffectiveTime),
  };
}
