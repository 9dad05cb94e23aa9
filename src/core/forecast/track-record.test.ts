import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROVIDERS } from '../enums.ts';
import { MS_PER_DAY, MS_PER_HOUR } from '../ordering.ts';
import type { Event } from '../schemas.ts';
import { makeEvent } from '../test-events.ts';
import { forecastFromHistory } from './rule.ts';
import { ForecastTrackRecordSchema, type ReliabilityBin } from './schemas.ts';
import { eventLists, iso, SPAN, START } from './test-histories.ts';
import { forecastTrackRecord, providerForecastTrackRecord, replayCheckpoints } from './track-record.ts';

const PROPERTY_TIMEOUT_MS = 120_000;
const day = (days: number) => START + days * MS_PER_DAY;
const resetOn = (days: number, overrides: Partial<Event> = {}) =>
  makeEvent({ id: `d${days}`, kind: 'reset', announcedAt: iso(day(days)), effectiveAt: null, ...overrides });

const emptyBins = (): ReliabilityBin[] =>
  Array.from({ length: 10 }, (_, bin) => ({
    from: bin / 10,
    to: (bin + 1) / 10,
    count: 0,
    meanForecast: null,
    observedFrequency: null,
  }));
const withBins = (bins: Record<number, Omit<ReliabilityBin, 'from' | 'to'>>) =>
  emptyBins().map((bin, index) => ({ ...bin, ...bins[index] }));

describe('the track record, worked by hand', () => {
  // Resets on days 0, 2, 6, 8, 12, 14, 18, 20, 24 (gaps alternating 2 and 4), built at day 24.5.
  const events = [0, 2, 6, 8, 12, 14, 18, 20, 24].map((days) => resetOn(days));
  const builtAt = new Date(day(24.5));

  it('checkpoints from the sixth reset (day 14), every 24 h, to the build', () => {
    const record = providerForecastTrackRecord('provider_a', events, builtAt);
    expect(record.firstCheckpoint).toBe(iso(day(14)));
    expect(record.checkpoints).toBe(11);
  });

  it('scores P(1d) against a reset in the next 24 h, beside the base rate', () => {
    // Day: t → P(1d) (gaps longer than t ending by t + 1) → reset in (c, c + 1]?
    // 14: 0 → 0/5 → no    15: 1 → 3/5 (the 2s) → no    16: 2 → 0/2 → no    17: 3 → 2/2 → yes
    // 18: 0 → 0/6 → no    19: 1 → 3/6 → yes           20: 0 → 0/7 → no    21: 1 → 4/7 → no
    // 22: 2 → 0/3 → no    23: 3 → 3/3 → yes           (24 is not scored: its day ends after the build)
    // Brier = (0.6² + 0.5² + (4/7)²) / 10 = 0.0937; base rate 3/10, its Brier 0.3 × 0.7 = 0.21.
    expect(providerForecastTrackRecord('provider_a', events, builtAt).horizons['1d']).toEqual({
      scored: 10,
      brierScore: 0.094,
      baseRate: 0.3,
      baseRateBrierScore: 0.21,
      reliability: withBins({
        0: { count: 5, meanForecast: 0, observedFrequency: 0 },
        5: { count: 2, meanForecast: 0.536, observedFrequency: 0.5 },
        6: { count: 1, meanForecast: 0.6, observedFrequency: 0 },
        9: { count: 2, meanForecast: 1, observedFrequency: 1 },
      }),
    });
  });

  it('scores P(7d) only where the 7 days had passed by the build', () => {
    // Days 14 to 17: every gap longer than t ends within 7 days, and the reset of day 18 came.
    expect(providerForecastTrackRecord('provider_a', events, builtAt).horizons['7d']).toEqual({
      scored: 4,
      brierScore: 0,
      baseRate: 1,
      baseRateBrierScore: 0,
      reliability: withBins({ 9: { count: 4, meanForecast: 1, observedFrequency: 1 } }),
    });
  });

  it('a reset recorded late counts as an outcome, but the rule did not see it before its announcement', () => {
    // The reset of day 18 was only announced on day 19.5: at day 19 the board still measured from day 14.
    const late = events.map((event) =>
      event.id === 'd18' ? { ...event, announcedAt: iso(day(19.5)), effectiveAt: iso(day(18)) } : event,
    );
    const at19 = replayCheckpoints('provider_a', late, builtAt).find((checkpoint) => checkpoint.atMs === day(19))!;
    expect(at19.judgement.elapsedMs).toBe(5 * MS_PER_DAY);
    const record = providerForecastTrackRecord('provider_a', late, builtAt);
    // Day 17 still scores a hit for the reset of day 18, although it was announced later.
    expect(record.horizons['1d'].reliability[9]).toMatchObject({ count: 2, observedFrequency: 1 });
  });

  it('is empty until 5 gaps exist', () => {
    const record = providerForecastTrackRecord('provider_a', events.slice(0, 5), builtAt);
    const empty = { scored: 0, brierScore: null, baseRate: null, baseRateBrierScore: null, reliability: emptyBins() };
    expect(record).toEqual({
      provider: 'provider_a',
      firstCheckpoint: null,
      checkpoints: 0,
      horizons: { '1d': empty, '7d': empty },
    });
  });
});

describe('track record invariants', () => {
  const builtAt = new Date(START + SPAN + 10 * MS_PER_DAY + 7 * MS_PER_HOUR);
  const outcome = (events: Event[], provider: string, atMs: number, days: number) =>
    events.some((e) => {
      const effective = Date.parse(e.effectiveAt ?? e.announcedAt);
      const known =
        e.verified && e.provider === provider && e.kind === 'reset' && Date.parse(e.announcedAt) <= builtAt.getTime();
      return known && effective > atMs && effective <= atMs + days * MS_PER_DAY && effective <= builtAt.getTime();
    });

  it('replays exactly the forecast the board showed at each checkpoint', { timeout: PROPERTY_TIMEOUT_MS }, () => {
    fc.assert(
      fc.property(eventLists, (events) => {
        for (const provider of PROVIDERS) {
          const checkpoints = replayCheckpoints(provider, events, builtAt);
          for (const [index, { atMs, judgement }] of checkpoints.entries()) {
            if (index > 0) expect(atMs - checkpoints[index - 1]!.atMs).toBe(MS_PER_DAY);
            const shown = forecastFromHistory(provider, events, new Date(atMs));
            expect(judgement.basis).toBe(shown.basis);
            expect(judgement.sampleSize).toBe(shown.sampleSize);
            expect(
              judgement.elapsedMs === null ? null : Math.round((judgement.elapsedMs / MS_PER_DAY) * 1000) / 1000,
            ).toBe(shown.elapsedDays);
          }
          // The first checkpoint is the first moment with 5 gaps.
          if (checkpoints[0] !== undefined) {
            expect(
              forecastFromHistory(provider, events, new Date(checkpoints[0].atMs)).sampleSize,
            ).toBeGreaterThanOrEqual(5);
            expect(forecastFromHistory(provider, events, new Date(checkpoints[0].atMs - 1)).sampleSize).toBeLessThan(5);
          }
        }
      }),
    );
  });

  it('scores what the board showed against what happened (a reference from the published forecasts)', {
    timeout: PROPERTY_TIMEOUT_MS,
  }, () => {
    fc.assert(
      fc.property(eventLists, (events) => {
        const record = forecastTrackRecord(events, builtAt);
        expect(ForecastTrackRecordSchema.parse(record)).toEqual(record);
        for (const [index, provider] of PROVIDERS.entries()) {
          const entry = record.providers[index]!;
          expect(entry.provider).toBe(provider);
          for (const [horizon, days] of [
            ['1d', 1],
            ['7d', 7],
          ] as const) {
            const pairs: [number, number][] = [];
            for (const { atMs } of replayCheckpoints(provider, events, builtAt)) {
              const shown = forecastFromHistory(provider, events, new Date(atMs)).probabilities[horizon];
              if (shown === null || atMs + days * MS_PER_DAY > builtAt.getTime()) continue;
              pairs.push([shown, outcome(events, provider, atMs, days) ? 1 : 0]);
            }
            const score = entry.horizons[horizon];
            expect(score.scored).toBe(pairs.length);
            expect(score.reliability.reduce((sum, bin) => sum + bin.count, 0)).toBe(pairs.length);
            if (pairs.length === 0) {
              expect(score.brierScore).toBeNull();
              continue;
            }
            const brier = pairs.reduce((sum, [p, o]) => sum + (p - o) ** 2, 0) / pairs.length;
            const rate = pairs.reduce((sum, [, o]) => sum + o, 0) / pairs.length;
            // The published probabilities are rounded to 3 decimals, the track record scores them unrounded.
            expect(Math.abs(score.brierScore! - brier)).toBeLessThanOrEqual(0.0016);
            expect(score.baseRate).toBe(Math.round(rate * 1000) / 1000);
            expect(Math.abs(score.baseRateBrierScore! - rate * (1 - rate))).toBeLessThanOrEqual(0.0006);
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it('does not depend on the order of the input or on drafts', { timeout: PROPERTY_TIMEOUT_MS }, () => {
    const withShuffle = eventLists.chain((events) =>
      fc.tuple(
        fc.constant(events),
        fc.shuffledSubarray(events, { minLength: events.length, maxLength: events.length }),
        eventLists,
      ),
    );
    fc.assert(
      fc.property(withShuffle, ([events, shuffled, extra]) => {
        const drafts = extra.map((event) => ({ ...event, id: `draft-${event.id}`, verified: false }));
        const expected = forecastTrackRecord(events, builtAt);
        expect(forecastTrackRecord(shuffled, builtAt)).toEqual(expected);
        expect(forecastTrackRecord([...shuffled, ...drafts], builtAt)).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });
});
