import { cadenceAt } from '../board.ts';
import { FORECAST_BASIS_GAPS, gapsBetween, MIN_FORECAST_GAPS } from '../cadence.ts';
import { PROVIDERS, type Provider } from '../enums.ts';
import { resetsInEffect, type ProviderSummary } from '../history.ts';
import {
  compareByEffectiveTime,
  compareNewestFirst,
  effectiveMs,
  eventsKnownAt,
  MS_PER_DAY,
  toIsoTimestamp,
} from '../ordering.ts';
import type { Event } from '../schemas.ts';
import { teaseIsLive } from '../status-word.ts';
import {
  CHANCE_BY_DAY_DAYS,
  FORECAST_HORIZONS,
  type Forecast,
  type ForecastBasis,
  type ForecastHorizon,
  type ForecastResponse,
} from './schemas.ts';

/**
 * The forecast (decisions.md, "Forecast"): how likely a reset is within 1, 3 and 7 days, counted over the
 * most recent 20 gaps between resets. With `t` the time since the last reset, P(h) is the share of the gaps
 * longer than `t` that ended by `t + h`: among the past waits that lasted as long as this one already has,
 * how many were over within h more days. All arithmetic is in whole milliseconds, so that a gap equal to
 * `t` or to `t + h` compares exactly; days appear only in the published numbers, rounded to 3 decimals.
 */

/** Fewer gaps than this and there is no forecast (`insufficient`); in cadence.ts, where the words can read it. */
export { MIN_FORECAST_GAPS };

/** Everything the rule reads, for one provider at one moment; both the summary and the history give it. */
export interface ForecastFacts {
  provider: Provider;
  nowMs: number;
  /** Published events known at `now`; 0 means no data. */
  eventCount: number;
  /** The reset in effect with the latest effective time. */
  lastReset: Event | null;
  /** The most recent (at most 20) gaps between resets in effect, in ms, oldest first. */
  basisGapsMs: readonly number[];
  /** The announced reset that takes effect next after `now`, if any. */
  soonestPending: Event | null;
  /** The newest tease known at `now`, if any. */
  newestTease: Event | null;
}

/** What the rule decided before any number is rounded: the basis, and what the numbers are counted from. */
export interface ForecastJudgement {
  basis: ForecastBasis;
  /** `t` in ms; null without a reset in effect. */
  elapsedMs: number | null;
  sampleSize: number;
  /** The gaps longer than `t` (the denominator of every P), ascending; non-empty exactly for `cadence`. */
  longerGapsMs: number[];
  lastResetMs: number | null;
  announcedForMs: number | null;
}

export function judgeForecast(facts: ForecastFacts): ForecastJudgement {
  const { nowMs, lastReset, basisGapsMs, soonestPending, newestTease } = facts;
  const lastResetMs = lastReset === null ? null : effectiveMs(lastReset);
  const elapsedMs = lastResetMs === null ? null : nowMs - lastResetMs;
  const judged = (
    basis: ForecastBasis,
    announcedForMs: number | null = null,
    longerGapsMs: number[] = [],
  ): ForecastJudgement => ({
    basis,
    elapsedMs,
    sampleSize: basisGapsMs.length,
    longerGapsMs,
    lastResetMs,
    announcedForMs,
  });
  if (facts.eventCount === 0) return judged('no_data');
  if (soonestPending !== null) return judged('announced', effectiveMs(soonestPending));
  if (
    newestTease !== null &&
    newestTease.effectiveAt !== null &&
    effectiveMs(newestTease) > nowMs &&
    teaseIsLive(newestTease, lastReset, nowMs)
  ) {
    return judged('teased', effectiveMs(newestTease));
  }
  if (basisGapsMs.length < MIN_FORECAST_GAPS || elapsedMs === null) return judged('insufficient');
  const longerGapsMs = basisGapsMs.filter((gap) => gap > elapsedMs).sort((a, b) => a - b);
  if (longerGapsMs.length === 0) return judged('beyond_history');
  return judged('cadence', null, longerGapsMs);
}

/** P(h) as an exact fraction: of the gaps longer than `t`, how many ended within `h` more days. */
export interface Chance {
  hits: number;
  outOf: number;
}

export function chanceWithin(judgement: ForecastJudgement, horizonDays: number): Chance | null {
  const { elapsedMs, longerGapsMs } = judgement;
  if (judgement.basis !== 'cadence' || elapsedMs === null) return null;
  const limitMs = elapsedMs + horizonDays * MS_PER_DAY;
  return { hits: longerGapsMs.filter((gap) => gap <= limitMs).length, outOf: longerGapsMs.length };
}

/** The `p` quantile of ascending values by linear interpolation between closest ranks (Hyndman and Fan's type 7). */
export function quantileType7(ascending: readonly number[], p: number): number {
  const position = (ascending.length - 1) * p;
  const below = Math.floor(position);
  const lower = ascending[below]!;
  const upper = ascending[Math.min(below + 1, ascending.length - 1)]!;
  return lower + (position - below) * (upper - lower);
}

export const roundTo3 = (value: number): number => Math.round(value * 1000) / 1000;

const probability = (chance: Chance | null): number | null =>
  chance === null ? null : roundTo3(chance.hits / chance.outOf);

export function forecastFromFacts(facts: ForecastFacts): Forecast {
  const judgement = judgeForecast(facts);
  const { elapsedMs, lastResetMs, longerGapsMs, announcedForMs } = judgement;
  const hasWindow = judgement.basis === 'cadence' && lastResetMs !== null;
  return {
    provider: facts.provider,
    basis: judgement.basis,
    elapsedDays: elapsedMs === null ? null : roundTo3(elapsedMs / MS_PER_DAY),
    sampleSize: judgement.sampleSize,
    probabilities: Object.fromEntries(
      Object.entries(FORECAST_HORIZONS).map(([name, days]) => [name, probability(chanceWithin(judgement, days))]),
    ) as Record<ForecastHorizon, number | null>,
    likelyWindow: hasWindow
      ? {
          from: toIsoTimestamp(lastResetMs + quantileType7(longerGapsMs, 0.25)),
          to: toIsoTimestamp(lastResetMs + quantileType7(longerGapsMs, 0.75)),
        }
      : null,
    announcedFor: announcedForMs === null ? null : toIsoTimestamp(announcedForMs),
  };
}

/** The facts at `now` (≥ the summary's `asOf`) from the summary the board uses: O(20 + pending resets). */
export function forecastFactsFromSummary(summary: ProviderSummary, now: Date): ForecastFacts {
  const cadence = cadenceAt(summary, now);
  return {
    provider: summary.provider,
    nowMs: cadence.nowMs,
    eventCount: summary.eventCount,
    lastReset: cadence.lastReset,
    basisGapsMs: cadence.recentGapsMs,
    soonestPending: cadence.stillPending[0] ?? null,
    newestTease: summary.newestTease,
  };
}

export const forecastFromSummary = (summary: ProviderSummary, now: Date): Forecast =>
  forecastFromFacts(forecastFactsFromSummary(summary, now));

/** The facts at `now` read straight from every event (drafts, later announcements and other providers ignored). */
export function forecastFactsFromHistory(provider: Provider, events: readonly Event[], now: Date): ForecastFacts {
  const nowMs = now.getTime();
  const known = eventsKnownAt(events, now).filter((event) => event.provider === provider);
  const inEffect = resetsInEffect(provider, events, now);
  const pending = known
    .filter((event) => event.kind === 'reset' && effectiveMs(event) > nowMs)
    .sort(compareByEffectiveTime);
  const teases = known.filter((event) => event.kind === 'tease').sort(compareNewestFirst);
  return {
    provider,
    nowMs,
    eventCount: known.length,
    lastReset: inEffect.at(-1) ?? null,
    basisGapsMs: gapsBetween(inEffect.map(effectiveMs)).slice(-FORECAST_BASIS_GAPS),
    soonestPending: pending[0] ?? null,
    newestTease: teases[0] ?? null,
  };
}

/** The forecast at `now` from the whole history: the reference the summary path must equal. */
export const forecastFromHistory = (provider: Provider, events: readonly Event[], now: Date): Forecast =>
  forecastFromFacts(forecastFactsFromHistory(provider, events, now));

/** `GET /api/forecast`: one forecast per provider, in the enumeration's order, stamped with `now`. */
export const forecastResponse = (
  summaries: Readonly<Record<Provider, ProviderSummary>>,
  now: Date,
): ForecastResponse => ({
  updatedAt: now.toISOString(),
  providers: PROVIDERS.map((provider) => forecastFromSummary(summaries[provider], now)),
});

/** The chance of a reset within each of the next `days` days (the provider page's chart); null without a `cadence` basis. */
export function chanceByDay(summary: ProviderSummary, now: Date, days = CHANCE_BY_DAY_DAYS): number[] | null {
  const judgement = judgeForecast(forecastFactsFromSummary(summary, now));
  if (judgement.basis !== 'cadence') return null;
  return Array.from({ length: days }, (_, index) => probability(chanceWithin(judgement, index + 1)) ?? 0);
}
