import { FORECAST_BASIS_GAPS, gapsBetween } from '../cadence.ts';
import { PROVIDERS, type Provider } from '../enums.ts';
import { resetsInEffect } from '../history.ts';
import { announcedMs, compareByEffectiveTime, compareNewestFirst, effectiveMs, eventsKnownAt, MS_PER_DAY, toIsoTimestamp } from '../ordering.ts';
import type { Event } from '../schemas.ts';
import { chanceWithin, judgeForecast, MIN_FORECAST_GAPS, roundTo3, type ForecastJudgement } from './rule.ts';
import type { ForecastTrackRecord, HorizonScore, ProviderForecastTrackRecord, ReliabilityBin } from './schemas.ts';

/**
 * The forecast's track record (decisions.md, "Forecast"): the rule replayed every 24 h through the history,
 * each time on what was known then, and its P(1d) and P(7d) scored against what happened.
 *
 * - Checkpoints: the first is the moment the sixth reset came into effect (its effective time, or its
 *   announcement if that came later), the first moment 5 gaps exist; then one every 24 h up to `builtAt`.
 * - At a checkpoint `c` the rule sees only the events announced by `c`, exactly as the board then did.
 * - Outcome for horizon h: a reset (of the whole history known at `builtAt`) took effect in (c, c + h days].
 *   A checkpoint is scored for h when the rule gave a probability and `c + h days ≤ builtAt` (the outcome
 *   is known); probabilities are scored unrounded.
 * - Base rate: the share of the scored checkpoints with a reset within h, forecast at every one of them
 *   (the climatology of the Brier skill score). It is known only in hindsight, so it is a demanding yardstick.
 *
 * One sweep through time with the resets kept in effective-time order: O(events + checkpoints × 20).
 */

export const SCORED_HORIZONS = { '1d': 1, '7d': 7 } as const;
export type ScoredHorizon = keyof typeof SCORED_HORIZONS;
const RELIABILITY_BINS = 10;

export interface Checkpoint {
  atMs: number;
  judgement: ForecastJudgement;
}

/** Inserts into a list kept in order; from the end, because events mostly arrive in order. */
function insertInOrder(list: Event[], event: Event, compare: (a: Event, b: Event) => number): void {
  let index = list.length;
  while (index > 0 && compare(list[index - 1]!, event) > 0) index -= 1;
  list.splice(index, 0, event);
}

/** When a reset is in effect on the board: it must be both announced and effective. */
const inEffectFromMs = (reset: Event): number => Math.max(announcedMs(reset), effectiveMs(reset));

/** The moment the sixth reset came into effect (5 gaps exist); null if that has not happened by `builtAt`. */
export function firstCheckpointMs(provider: Provider, events: readonly Event[], builtAt: Date): number | null {
  const moments = resetsInEffect(provider, events, builtAt)
    .map(inEffectFromMs)
    .sort((a, b) => a - b);
  return moments[MIN_FORECAST_GAPS] ?? null;
}

/** The rule's judgement at every checkpoint, each from the events known then. */
export function replayCheckpoints(provider: Provider, events: readonly Event[], builtAt: Date): Checkpoint[] {
  const firstMs = firstCheckpointMs(provider, events, builtAt);
  if (firstMs === null) return [];
  const byAnnouncement = eventsKnownAt(events, builtAt)
    .filter((event) => event.provider === provider)
    .sort((a, b) => announcedMs(a) - announcedMs(b));
  const pending: Event[] = [];
  const inEffect: Event[] = [];
  let known = 0;
  let newestTease: Event | null = null;
  const checkpoints: Checkpoint[] = [];
  for (let atMs = firstMs; atMs <= builtAt.getTime(); atMs += MS_PER_DAY) {
    for (; known < byAnnouncement.length && announcedMs(byAnnouncement[known]!) <= atMs; known += 1) {
      const event = byAnnouncement[known]!;
      if (event.kind === 'reset') insertInOrder(pending, event, compareByEffectiveTime);
      if (event.kind === 'tease' && (newestTease === null || compareNewestFirst(event, newestTease) < 0)) newestTease = event;
    }
    while (pending.length > 0 && effectiveMs(pending[0]!) <= atMs) insertInOrder(inEffect, pending.shift()!, compareByEffectiveTime);
    const judgement = judgeForecast({
      provider,
      nowMs: atMs,
      eventCount: known,
      lastReset: inEffect.at(-1) ?? null,
      basisGapsMs: gapsBetween(inEffect.slice(-(FORECAST_BASIS_GAPS + 1)).map(effectiveMs)),
      soonestPending: pending[0] ?? null,
      newestTease,
    });
    checkpoints.push({ atMs, judgement });
  }
  return checkpoints;
}

/** One scored forecast: the unrounded probability and whether a reset followed within the horizon. */
export interface ScoredForecast {
  probability: number;
  /** Which tenth the probability falls in, 0 to 9 (1 belongs to the last), from the exact fraction. */
  bin: number;
  happened: boolean;
}

/** Index of the first value greater than `value` in an ascending list. */
function firstAfter(ascending: readonly number[], value: number): number {
  let low = 0;
  let high = ascending.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (ascending[middle]! <= value) low = middle + 1;
    else high = middle;
  }
  return low;
}

export function scoredForecasts(
  checkpoints: readonly Checkpoint[],
  resetTimesMs: readonly number[],
  builtAtMs: number,
  horizonDays: number,
): ScoredForecast[] {
  const horizonMs = horizonDays * MS_PER_DAY;
  const scored: ScoredForecast[] = [];
  for (const { atMs, judgement } of checkpoints) {
    const chance = chanceWithin(judgement, horizonDays);
    if (chance === null || atMs + horizonMs > builtAtMs) continue;
    const next = resetTimesMs[firstAfter(resetTimesMs, atMs)];
    scored.push({
      probability: chance.hits / chance.outOf,
      // Integer numerator and denominator: the quotient is an exact integer or at least 1/outOf away from one.
      bin: Math.min(RELIABILITY_BINS - 1, Math.floor((RELIABILITY_BINS * chance.hits) / chance.outOf)),
      happened: next !== undefined && next <= atMs + horizonMs,
    });
  }
  return scored;
}

const mean = (values: readonly number[]): number | null =>
  values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
const rounded = (value: number | null): number | null => (value === null ? null : roundTo3(value));
const outcome = (forecast: ScoredForecast): number => (forecast.happened ? 1 : 0);

export function scoreHorizon(scored: readonly ScoredForecast[]): HorizonScore {
  const baseRate = mean(scored.map(outcome));
  const reliability: ReliabilityBin[] = Array.from({ length: RELIABILITY_BINS }, (_, bin) => {
    const inBin = scored.filter((forecast) => forecast.bin === bin);
    return {
      from: bin / RELIABILITY_BINS,
      to: (bin + 1) / RELIABILITY_BINS,
      count: inBin.length,
      meanForecast: rounded(mean(inBin.map((forecast) => forecast.probability))),
      observedFrequency: rounded(mean(inBin.map(outcome))),
    };
  });
  return {
    scored: scored.length,
    brierScore: rounded(mean(scored.map((forecast) => (forecast.probability - outcome(forecast)) ** 2))),
    baseRate: rounded(baseRate),
    baseRateBrierScore: baseRate === null ? null : rounded(mean(scored.map((forecast) => (baseRate - outcome(forecast)) ** 2))),
    reliability,
  };
}

export function providerForecastTrackRecord(provider: Provider, events: readonly Event[], builtAt: Date): ProviderForecastTrackRecord {
  const checkpoints = replayCheckpoints(provider, events, builtAt);
  const resetTimesMs = resetsInEffect(provider, events, builtAt).map(effectiveMs);
  const horizon = (days: number) => scoreHorizon(scoredForecasts(checkpoints, resetTimesMs, builtAt.getTime(), days));
  return {
    provider,
    firstCheckpoint: checkpoints[0] === undefined ? null : toIsoTimestamp(checkpoints[0].atMs),
    checkpoints: checkpoints.length,
    horizons: { '1d': horizon(SCORED_HORIZONS['1d']), '7d': horizon(SCORED_HORIZONS['7d']) },
  };
}

/** `GET /api/forecast/track-record`: computed at build time from the whole history, stamped with `builtAt`. */
export const forecastTrackRecord = (events: readonly Event[], builtAt: Date): ForecastTrackRecord => ({
  updatedAt: builtAt.toISOString(),
  providers: PROVIDERS.map((provider) => providerForecastTrackRecord(provider, events, builtAt)),
});
