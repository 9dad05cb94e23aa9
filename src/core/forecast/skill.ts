import { z } from 'zod';
import { lazySchema } from '../lazy-schema.ts';
import type { ProviderForecastTrackRecord } from './schemas.ts';
import { SCORED_HORIZONS } from './track-record.ts';

/**
 * Whether the forecast has done better than its yardstick (decisions.md, "The board on a phone"): where a
 * horizon's Brier score is higher (worse) than the base rate's over the same checkpoints, the board and the
 * provider page say so beside the number. The rule reads the published scores (3 decimals), so what it says
 * always matches the numbers a reader sees: 0.057 against 0.047 is worse; two equal numbers are not.
 */

export type ScoredHorizon = keyof typeof SCORED_HORIZONS;
export const SCORED_HORIZON_NAMES = Object.keys(SCORED_HORIZONS) as ScoredHorizon[];

const BrierPairSchema = lazySchema(() =>
  z.strictObject({
    brierScore: z.number().min(0).max(1).nullable().describe('the forecast’s Brier score (3 decimals); null unscored'),
    baseRateBrierScore: z.number().min(0).max(1).nullable().describe('the base rate’s over the same checkpoints'),
  }),
);
export type BrierPair = z.infer<typeof BrierPairSchema>;

/**
 * The two scores per horizon, all the board needs of the track record (it travels in the edge data set). Made on
 * first use (src/core/lazy-schema.ts): the build checks its files with it, the worker trusts them.
 */
export const ForecastScoresSchema = lazySchema(() => z.strictObject({ '1d': BrierPairSchema, '7d': BrierPairSchema }));
export type ForecastScores = z.infer<typeof ForecastScoresSchema>;

export const forecastScores = (record: ProviderForecastTrackRecord): ForecastScores => ({
  '1d': { brierScore: record.horizons['1d'].brierScore, baseRateBrierScore: record.horizons['1d'].baseRateBrierScore },
  '7d': { brierScore: record.horizons['7d'].brierScore, baseRateBrierScore: record.horizons['7d'].baseRateBrierScore },
});

/** Lower is better: worse means strictly higher than the base rate's score; unknown when either is missing. */
export const scoresWorseThanBaseRate = ({ brierScore, baseRateBrierScore }: BrierPair): boolean =>
  brierScore !== null && baseRateBrierScore !== null && brierScore > baseRateBrierScore;

/** The horizons whose forecast has scored worse than the base rate, shortest first. */
export const horizonsWorseThanBaseRate = (scores: ForecastScores): ScoredHorizon[] =>
  SCORED_HORIZON_NAMES.filter((horizon) => scoresWorseThanBaseRate(scores[horizon]));
