import { z } from 'zod';
import { FORECAST_BASIS_GAPS } from '../cadence.ts';
import { ProviderSchema } from '../enums.ts';
import { lazySchema } from '../lazy-schema.ts';
import { UtcTimestampSchema } from '../schemas.ts';

/**
 * The forecast's resources (decisions.md, "Forecast") as zod schemas, registered with ids so that they reach
 * the OpenAPI components once a route uses them. The forecast of one provider is made as the module loads (MCP's
 * `get_forecast` lists it); the response and the track record, which only the documents and the build read, on
 * first use (src/core/lazy-schema.ts).
 */

export const FORECAST_BASES = ['cadence', 'announced', 'teased', 'insufficient', 'beyond_history', 'no_data'] as const;
export const ForecastBasisSchema = z
  .enum(FORECAST_BASES)
  .describe(
    '`cadence`: probabilities from past gaps; `announced`: a reset is announced for a later time; `teased`: a live tease names a later time; `insufficient`: fewer than 5 gaps; `beyond_history`: no recorded gap is longer than the time since the last reset; `no_data`: no published events',
  )
  .meta({ id: 'ForecastBasis' });
export type ForecastBasis = z.infer<typeof ForecastBasisSchema>;

/** The horizons of the published probabilities, in days, with their field names. */
export const FORECAST_HORIZONS = { '1d': 1, '3d': 3, '7d': 7 } as const;
export type ForecastHorizon = keyof typeof FORECAST_HORIZONS;

/** How many days ahead the provider page's chart gives the chance of a reset (`chanceByDay`). */
export const CHANCE_BY_DAY_DAYS = 14;

const Probability = z.number().min(0).max(1).nullable();

export const ForecastSchema = z
  .strictObject({
    provider: ProviderSchema,
    basis: ForecastBasisSchema,
    elapsedDays: z
      .number()
      .nonnegative()
      .nullable()
      .describe('days since the last reset took effect (3 decimals); null without a reset'),
    sampleSize: z
      .int()
      .min(0)
      .max(FORECAST_BASIS_GAPS)
      .describe('number of gaps in the basis: the most recent 20 gaps between resets, all if fewer'),
    probabilities: z
      .strictObject({ '1d': Probability, '3d': Probability, '7d': Probability })
      .describe(
        'share of the past gaps longer than the time elapsed that ended within 1, 3 or 7 more days (3 decimals); a pattern in past gaps, not a vendor plan; null unless basis is `cadence`',
      ),
    likelyWindow: z
      .strictObject({ from: UtcTimestampSchema, to: UtcTimestampSchema })
      .nullable()
      .describe(
        'last reset + the 25th and 75th percentiles of the past gaps longer than the time elapsed; null unless basis is `cadence`',
      ),
    announcedFor: UtcTimestampSchema.nullable().describe(
      'effective time of the announced reset (`announced`) or of the tease (`teased`); null otherwise',
    ),
  })
  .meta({ id: 'Forecast' });
export type Forecast = z.infer<typeof ForecastSchema>;

export const ForecastResponseSchema = lazySchema(() =>
  z
    .strictObject({
      updatedAt: UtcTimestampSchema,
      providers: z.array(ForecastSchema),
    })
    .meta({ id: 'ForecastResponse' }),
);
export type ForecastResponse = z.infer<typeof ForecastResponseSchema>;

export const ReliabilityBinSchema = lazySchema(() =>
  z
    .strictObject({
      from: z.number().min(0).max(1).describe('lower bound of the forecast bin (inclusive)'),
      to: z.number().min(0).max(1).describe('upper bound of the forecast bin (exclusive, except 1 for the last bin)'),
      count: z.int().nonnegative().describe('checkpoints whose forecast fell in the bin'),
      meanForecast: z
        .number()
        .min(0)
        .max(1)
        .nullable()
        .describe('mean of those forecasts (3 decimals); null when count is 0'),
      observedFrequency: z
        .number()
        .min(0)
        .max(1)
        .nullable()
        .describe(
          'share of those checkpoints followed by a reset within the horizon (3 decimals); null when count is 0',
        ),
    })
    .meta({ id: 'ReliabilityBin' }),
);
export type ReliabilityBin = z.infer<typeof ReliabilityBinSchema>;

export const HorizonScoreSchema = lazySchema(() =>
  z
    .strictObject({
      scored: z.int().nonnegative().describe('checkpoints with a probability whose horizon had passed by `updatedAt`'),
      brierScore: z
        .number()
        .min(0)
        .max(1)
        .nullable()
        .describe('mean of (forecast − outcome)² over the scored checkpoints (3 decimals); 0 is perfect'),
      baseRate: z
        .number()
        .min(0)
        .max(1)
        .nullable()
        .describe('share of the scored checkpoints followed by a reset within the horizon (3 decimals)'),
      baseRateBrierScore: z
        .number()
        .min(0)
        .max(1)
        .nullable()
        .describe(
          'Brier score of forecasting the base rate at every scored checkpoint (3 decimals): the score to beat',
        ),
      reliability: z.array(ReliabilityBinSchema).length(10).describe('the forecasts binned by tenths'),
    })
    .meta({ id: 'ForecastHorizonScore' }),
);
export type HorizonScore = z.infer<typeof HorizonScoreSchema>;

export const ProviderForecastTrackRecordSchema = lazySchema(() =>
  z
    .strictObject({
      provider: ProviderSchema,
      firstCheckpoint: UtcTimestampSchema.nullable().describe(
        'the moment the 6th reset took effect (5 gaps exist); checkpoints follow every 24 h',
      ),
      checkpoints: z.int().nonnegative().describe('checkpoints from the first one up to `updatedAt`'),
      horizons: z.strictObject({ '1d': HorizonScoreSchema, '7d': HorizonScoreSchema }),
    })
    .meta({ id: 'ProviderForecastTrackRecord' }),
);
export type ProviderForecastTrackRecord = z.infer<typeof ProviderForecastTrackRecordSchema>;

export const ForecastTrackRecordSchema = lazySchema(() =>
  z
    .strictObject({
      updatedAt: UtcTimestampSchema,
      providers: z.array(ProviderForecastTrackRecordSchema),
    })
    .meta({ id: 'ForecastTrackRecord' }),
);
export type ForecastTrackRecord = z.infer<typeof ForecastTrackRecordSchema>;
