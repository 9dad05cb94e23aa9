import { z } from 'zod';
import { BuildStampSchema } from './build-stamp.ts';
import { resetGapSeries } from './board.ts';
import { ProviderSchema } from './enums.ts';
import { ProviderForecastTrackRecordSchema } from './forecast/schemas.ts';
import { forecastScores, ForecastScoresSchema } from './forecast/skill.ts';
import { providerForecastTrackRecord } from './forecast/track-record.ts';
import { compareNewestFirst } from './ordering.ts';
import { EventProvenanceSchema, type EventProvenance } from './provenance.ts';
import { EventSchema, UtcTimestampSchema, type Event } from './schemas.ts';
import { estimateTrackRecord } from './track-record.ts';
import type { Provider } from './vocabulary.ts';

/**
 * What a provider page shows beyond its board row, all of it fixed by the events alone: computed at build time
 * (one file per provider), so a page request does not replay the history.
 */
export const providerPagePath = (provider: Provider) => `/data/providers/${provider}.json`;

/**
 * How much of a long history one page carries: the newest 2,000 events (each with its anchor), the newest
 * 500 gaps in the chart and the newest 200 checks of the track record (its median still over all of them).
 * Real histories are far shorter; the limits keep a page, and its data file, bounded (docs/performance.md).
 */
export const PAGE_LIMITS = { history: 200, gaps: 500, checks: 50 } as const;

export const ProviderPageDataSchema = z.strictObject({
  provider: ProviderSchema,
  builtAt: UtcTimestampSchema,
  history: z.array(EventSchema).describe('newest first'),
  totalEvents: z.int().nonnegative(),
  provenance: z
    .record(z.string(), EventProvenanceSchema)
    .describe('by event id, for the events of `history` whose git history is known (see docs/provenance.md)'),
  gaps: z.array(z.strictObject({ endedAt: UtcTimestampSchema, days: z.number() })),
  trackRecord: z.strictObject({
    checks: z.array(z.strictObject({ reset: EventSchema, estimatedAt: UtcTimestampSchema, errorDays: z.number() })),
    medianAbsoluteErrorDays: z.number().nullable(),
  }),
  /** The forecast's track record (the provider's entry of GET /api/forecast/track-record). */
  forecastTrackRecord: ProviderForecastTrackRecordSchema,
});
export type ProviderPageData = z.infer<typeof ProviderPageDataSchema>;

/** A provider page's data file as the build writes it, with the build's stamp. */
export const ProviderPageFileSchema = ProviderPageDataSchema.extend({ stamp: BuildStampSchema });

/** Whether anything of an event's history is known (an unknown one is left out of the page's file). */
const isKnown = (provenance: EventProvenance | undefined): provenance is EventProvenance =>
  provenance !== undefined && provenance.recordedAt !== null;

/** `events`: the published events; the page's facts are as of `builtAt`; `provenance` by event id, from git. */
export function buildProviderPageData(
  provider: Provider,
  events: readonly Event[],
  builtAt: Date,
  provenance: ReadonlyMap<string, EventProvenance> = new Map(),
): ProviderPageData {
  const history = events.filter((event) => event.provider === provider).sort(compareNewestFirst);
  const record = estimateTrackRecord(provider, events, builtAt);
  const shown = history.slice(0, PAGE_LIMITS.history);
  const known: Record<string, EventProvenance> = {};
  for (const event of shown) {
    const found = provenance.get(event.id);
    if (isKnown(found)) known[event.id] = found;
  }
  return {
    provider,
    builtAt: builtAt.toISOString(),
    history: shown,
    totalEvents: history.length,
    provenance: known,
    gaps: resetGapSeries(provider, events, builtAt).slice(-PAGE_LIMITS.gaps),
    trackRecord: {
      checks: record.checks.slice(-PAGE_LIMITS.checks),
      medianAbsoluteErrorDays: record.medianAbsoluteErrorDays,
    },
    forecastTrackRecord: providerForecastTrackRecord(provider, events, builtAt),
  };
}

/**
 * The two facts of a provider page's data file that its slots read at request time (src/core/page-slots/provider.ts):
 * the longest gap the chart draws (its height in days, unless the overdue line is higher) and the forecast's Brier
 * scores. A file of their own (`/data/provider-slots/<provider>.json`, a few hundred bytes), so that a page filled
 * in from its template does not parse the page's whole file (130 KiB at 10,000 events).
 */
export const ProviderSlotFactsSchema = z.strictObject({
  longestGapDays: z.number().nonnegative(),
  forecastScores: ForecastScoresSchema,
});
export type ProviderSlotFacts = z.infer<typeof ProviderSlotFactsSchema>;
export const ProviderSlotFactsFileSchema = ProviderSlotFactsSchema.extend({ stamp: BuildStampSchema });

export const providerSlotFactsPath = (provider: Provider) => `/data/provider-slots/${provider}.json`;

export function providerSlotFacts(page: ProviderPageData): ProviderSlotFacts {
  let longestGapDays = 0;
  for (const gap of page.gaps) longestGapDays = Math.max(longestGapDays, gap.days);
  return { longestGapDays, forecastScores: forecastScores(page.forecastTrackRecord) };
}
