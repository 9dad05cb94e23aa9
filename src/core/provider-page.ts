import { z } from 'zod';
import { resetGapSeries } from './board.ts';
import { ProviderSchema } from './enums.ts';
import { compareNewestFirst } from './ordering.ts';
import { EventSchema, UtcTimestampSchema, type Event } from './schemas.ts';
import { estimateTrackRecord } from './track-record.ts';
import type { Provider } from './vocabulary.ts';

/**
 * What a provider page shows beyond its board row, all of it fixed by the events alone: computed at build time
 * (one file per provider), so a page request does not replay the history.
 */
export const providerPagePath = (provider: Provider) => `/data/providers/${provider}.json`;

export const ProviderPageDataSchema = z.strictObject({
  provider: ProviderSchema,
  builtAt: UtcTimestampSchema,
  history: z.array(EventSchema).describe('newest first'),
  gaps: z.array(z.strictObject({ endedAt: UtcTimestampSchema, days: z.number() })),
  trackRecord: z.strictObject({
    checks: z.array(z.strictObject({ reset: EventSchema, estimatedAt: UtcTimestampSchema, errorDays: z.number() })),
    medianAbsoluteErrorDays: z.number().nullable(),
  }),
});
export type ProviderPageData = z.infer<typeof ProviderPageDataSchema>;

/** `events`: the published events; the page's facts are as of `builtAt`. */
export const buildProviderPageData = (provider: Provider, events: readonly Event[], builtAt: Date): ProviderPageData => ({
  provider,
  builtAt: builtAt.toISOString(),
  history: events.filter((event) => event.provider === provider).sort(compareNewestFirst),
  gaps: resetGapSeries(provider, events, builtAt),
  trackRecord: estimateTrackRecord(provider, events, builtAt),
});
