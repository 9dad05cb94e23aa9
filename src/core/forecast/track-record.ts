import { FORECAST_BASIS_GAPS, gapsBetween } from '../cadence.ts';
import { PROVIDERS, type Provider } from '../enums.ts';
import {
  announcedMs,
  compareNewestFirst,
  effectiveMs,
  eventsKnownAt,
  MS_PER_DAY,
  toIsoTimestamp,
} from '../ordering.ts';
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
 * Times are parsed once, then one sweep through time keeps the resets in effective-time order:
 * O(events × log events + checkpoints × 20).
 */

export const SCORED_HORIZONS = { '1d': 1, '7d': 7 } as const;
const RELIABILITY_BINS = 10;

export interface Checkpoint {
  atMs: number;
  judgement: ForecastJudgement;
}

/** An event with its times parsed once: a long history is sorted and swept without re-parsing timestamps. */
interface TimedEvent {
  event: Event;
  announcedMs: number;
  effectiveMs: number;
}

/** The provider's events known at `builtAt`, oldest announcement first. */
const timedEvents = (provider: Provider, events: readonly Event[], builtAt: Date): TimedEvent[] =>
  eventsKnownAt(events, builtAt)
    .filter((event) => event.provider === provider)
    .map((event) => ({ event, announcedMs: announcedMs(event), effectiveMs: effectiveMs(event) }))
    .sort((a, b) => a.announcedMs - b.announcedMs);

/** The order of compareByEffectiveTime (effective time, then announcement, then id), on parsed times. */
const byEffectiveTime = (a: TimedEvent, b: TimedEvent): number =>
  a.effectiveMs - b.effectiveMs ||
  a.announcedMs - b.announcedMs ||
  (a.event.id < b.event.id ? -1 : a.event.id > b.event.id ? 1 : 0);

/** Inserts into a list kept in order; from the end, because events mostly arrive in order. */
function insertInOrder(list: TimedEvent[], item: TimedEvent): void {
  let index = list.length;
  while (index > 0 && byEffectiveTime(list[index - 1]!, item) > 0) index -= 1;
  list.splice(index, 0, item);
}

/** The resets in effect at `builtAt`: what happened, whenever it was recorded. */
const resetsHappened = (timed: readonly TimedEvent[], builtAtMs: number): TimedEvent[] =>
  timed.filter(({ event, effectiveMs }) => event.kind === 'reset' && effectiveMs <= builtAtMs);

/**
 * The first checkpoint: the moment the sixth reset came into effect on the board (5 gaps exist). A reset is
 * on the board once it is both announced and effective; null if that has not happened by `builtAt`.
 */
function firstCheckpointMs(happened: readonly TimedEvent[]): number | null {
  const moments = happened
    .map(({ announcedMs, effectiveMs }) => Math.max(announcedMs, effectiveMs))
    .sort((a, b) => a - b);
  return moments[MIN_FORECAST_GAPS] ?? null;
}

function replayTimed(provider: Provider, timed: readonly TimedEvent[], builtAtMs: number): Checkpoint[] {
  const firstMs = firstCheckpointMs(resetsHappened(timed, builtAtMs));
  if (firstMs === null) return [];
  const pending: TimedEvent[] = [];
  const inEffect: TimedEvent[] = [];
  let known = 0;
  let newestTease: Event | null = null;
  const checkpoints: Checkpoint[] = [];
  for (let atMs = firstMs; atMs <= builtAtMs; atMs += MS_PER_DAY) {
    for (; known < timed.length && timed[known]!.announcedMs <= atMs; known += 1) {
      const item = timed[known]!;
      if (item.event.kind === 'reset') insertInOrder(pending, item);
      if (item.event.kind === 'tease' && (newestTease === null || compareNewestFirst(item.event, newestTease) < 0))
        newestTease = item.event;
    }
    while (pending.length > 0 && pending[0]!.effectiveMs <= atMs) insertInOrder(inEffect, pending.shift()!);
    const judgement = judgeForecast({
      provider,
      nowMs: atMs,
      eventCount: known,
      lastReset: inEffect.at(-1)?.event ?? null,
      basisGapsMs: gapsBetween(inEffect.slice(-(FORECAST_BASIS_GAPS + 1)).map((item) => item.effectiveMs)),
      soonestPending: pending[0]?.event ?? null,
      newestTease,
    });
    checkpoints.push({ atMs, judgement });
  }
  return checkpoints;
}

/** The rule's judgement at every checkpoint, each from the events known then. */
export const replayCheckpoints = (provider: Provider, events: readonly Event[], builtAt: Date): Checkpoint[] =>
  replayTimed(provider, timedEvents(provider, events, builtAt), builtAt.getTime());

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
    baseRateBrierScore:
      baseRate === null ? null : rounded(mean(scored.map((forecast) => (baseRate - outcome(forecast)) ** 2))),
    reliability,
  };
}

export function providerForecastTrackRecord(
  provider: Provider,
  events: readonly Event[],
  builtAt: Date,
): ProviderForecastTrackRecord {
  const timed = timedEvents(provider, events, builtAt);
  const checkpoints = replayTimed(provider, timed, builtAt.getTime());
  const resetTimesMs = resetsHappened(timed, builtAt.getTime())
    .map((item) => item.effectiveMs)
    .sort((a, b) => a - b);
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
