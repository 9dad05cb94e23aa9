import { describe, expect, it } from 'vitest';
import { summarizeProvider } from '../history.ts';
import { MS_PER_DAY, MS_PER_HOUR } from '../ordering.ts';
import type { Event } from '../schemas.ts';
import { daysBefore, makeEvent, NOW, resetDaysAgo, resetsWithGaps } from '../test-events.ts';
import { chanceByDay, forecastFromHistory, forecastFromSummary, forecastResponse, quantileType7 } from './rule.ts';
import { ForecastResponseSchema, ForecastSchema, type Forecast } from './schemas.ts';

/** Expected values below are worked out by hand from the gaps in days (the comments show the counting). */

const at = (daysFromNow: number) => new Date(NOW.getTime() + daysFromNow * MS_PER_DAY).toISOString();

/** The forecast at `now`, from the whole history and from a summary built at `now`: both must agree. */
function forecastOf(events: Event[], now: Date = NOW): Forecast {
  const fromHistory = forecastFromHistory('provider_a', events, now);
  expect(forecastFromSummary(summarizeProvider('provider_a', events, now), now)).toEqual(fromHistory);
  expect(ForecastSchema.parse(fromHistory)).toEqual(fromHistory);
  return fromHistory;
}

const noNumbers = { probabilities: { '1d': null, '3d': null, '7d': null }, likelyWindow: null };

describe('the basis: how many gaps', () => {
  it('fewer than 5 gaps: insufficient, no numbers', () => {
    expect(forecastOf(resetsWithGaps([10, 10, 10, 10], 2))).toEqual({
      provider: 'provider_a',
      basis: 'insufficient',
      elapsedDays: 2,
      sampleSize: 4,
      ...noNumbers,
      announcedFor: null,
    });
  });

  it('exactly 5 gaps: probabilities and the likely window', () => {
    // Gaps 4, 6, 8, 10, 12; t = 5. Longer than t: 6, 8, 10, 12 (4 of them).
    // Within 1 day (≤ 6): 6 → 1/4. Within 3 (≤ 8): 6, 8 → 2/4. Within 7 (≤ 12): all → 4/4.
    // Type 7 quantiles of 6, 8, 10, 12: 25th at rank 0.75 → 7.5; 75th at rank 2.25 → 10.5; last reset 5 days ago.
    expect(forecastOf(resetsWithGaps([4, 6, 8, 10, 12], 5))).toEqual({
      provider: 'provider_a',
      basis: 'cadence',
      elapsedDays: 5,
      sampleSize: 5,
      probabilities: { '1d': 0.25, '3d': 0.5, '7d': 1 },
      likelyWindow: { from: at(2.5), to: at(5.5) },
      announcedFor: null,
    });
  });

  it('20 gaps: all of them count', () => {
    // Gaps 1 … 20 days; t = 0.5, so all 20 are longer. ≤ 1.5: {1}; ≤ 3.5: {1, 2, 3}; ≤ 7.5: {1 … 7}.
    // Quantiles of 1 … 20: 25th at rank 4.75 → 5.75; 75th at rank 14.25 → 15.25.
    const gaps = Array.from({ length: 20 }, (_, index) => index + 1);
    expect(forecastOf(resetsWithGaps(gaps, 0.5))).toMatchObject({
      basis: 'cadence',
      sampleSize: 20,
      probabilities: { '1d': 0.05, '3d': 0.15, '7d': 0.35 },
      likelyWindow: { from: at(5.25), to: at(14.75) },
    });
  });

  it('21 gaps: the oldest is left out', () => {
    const gaps = Array.from({ length: 20 }, (_, index) => index + 1);
    const twenty = forecastOf(resetsWithGaps(gaps, 0.5));
    expect(forecastOf(resetsWithGaps([100, ...gaps], 0.5))).toEqual(twenty);
    // The one gap longer than t is the 21st most recent: it does not count, so the history is exceeded.
    expect(forecastOf(resetsWithGaps([30, ...new Array<number>(20).fill(1)], 2))).toMatchObject({
      basis: 'beyond_history',
      sampleSize: 20,
    });
    expect(forecastOf(resetsWithGaps([30, ...new Array<number>(19).fill(1)], 2))).toMatchObject({
      basis: 'cadence',
      sampleSize: 20,
      probabilities: { '1d': 0, '3d': 0, '7d': 0 },
    });
  });
});

describe('the boundaries of t', () => {
  it('t equal to a gap: that gap is over, it is not counted', () => {
    // Gaps 2, 4, 6, 8, 10; t = 4. Longer than 4: 6, 8, 10. ≤ 5: none; ≤ 7: {6}; ≤ 11: all three.
    expect(forecastOf(resetsWithGaps([2, 4, 6, 8, 10], 4))).toMatchObject({
      basis: 'cadence',
      elapsedDays: 4,
      probabilities: { '1d': 0, '3d': 0.333, '7d': 1 },
    });
  });

  it('t + h equal to a gap: that gap counts as ending within h', () => {
    // t = 3. Longer: 4, 6, 8, 10. ≤ 4: {4}; ≤ 6: {4, 6}; ≤ 10: all four.
    expect(forecastOf(resetsWithGaps([2, 4, 6, 8, 10], 3))).toMatchObject({
      probabilities: { '1d': 0.25, '3d': 0.5, '7d': 1 },
    });
  });

  it('no gap beyond t: beyond_history, no numbers', () => {
    for (const elapsed of [10, 12.5]) {
      expect(forecastOf(resetsWithGaps([2, 4, 6, 8, 10], elapsed))).toEqual({
        provider: 'provider_a',
        basis: 'beyond_history',
        elapsedDays: elapsed,
        sampleSize: 5,
        ...noNumbers,
        announcedFor: null,
      });
    }
  });

  it('rounds the published numbers to 3 decimals', () => {
    // Gaps 1, 2, 3 and twice 5; t = 1 day 1 hour → 1.0416… days. Longer: 2, 3, 5, 5. ≤ 2.04: {2} → 1/4.
    const forecast = forecastOf(resetsWithGaps([1, 2, 3, 5, 5], 1 + 1 / 24));
    expect(forecast.elapsedDays).toBe(1.042);
    expect(forecast.probabilities['1d']).toBe(0.25);
  });
});

describe('announcements and teases', () => {
  const history = () => resetsWithGaps([2, 4, 6, 8, 10], 3);

  it('a pending reset: announced, with its effective time, and no probabilities', () => {
    const pending = resetDaysAgo(1, { effectiveAt: at(2) });
    expect(forecastOf([...history(), pending])).toEqual({
      provider: 'provider_a',
      basis: 'announced',
      elapsedDays: 3,
      sampleSize: 5,
      ...noNumbers,
      announcedFor: at(2),
    });
  });

  it('the soonest of several pending resets, even with too few gaps', () => {
    const events = [
      resetDaysAgo(20),
      resetDaysAgo(1, { effectiveAt: at(5) }),
      resetDaysAgo(0.5, { effectiveAt: at(3) }),
    ];
    expect(forecastOf(events)).toMatchObject({ basis: 'announced', announcedFor: at(3), sampleSize: 0 });
  });

  it('once the pending reset takes effect, the summary built before folds it into the gaps', () => {
    const pending = resetDaysAgo(1, { effectiveAt: at(2) });
    const events = [...history(), pending];
    const later = new Date(NOW.getTime() + 2.5 * MS_PER_DAY);
    // Gaps now 2, 4, 6, 8, 10 and 5 (the pending one, 3 + 2 days after the last); t = 0.5: all 6 are longer.
    // ≤ 1.5: none; ≤ 3.5: {2} → 1/6; ≤ 7.5: {2, 4, 6, 5} → 4/6.
    const expected = forecastFromHistory('provider_a', events, later);
    expect(expected).toMatchObject({
      basis: 'cadence',
      sampleSize: 6,
      elapsedDays: 0.5,
      probabilities: { '1d': 0, '3d': 0.167, '7d': 0.667 },
    });
    expect(forecastFromSummary(summarizeProvider('provider_a', events, NOW), later)).toEqual(expected);
  });

  it('a live tease whose effectiveAt is ahead: teased, with that time', () => {
    const tease = makeEvent({ kind: 'tease', announcedAt: daysBefore(1), effectiveAt: at(4) });
    expect(forecastOf([...history(), tease])).toMatchObject({ basis: 'teased', announcedFor: at(4), ...noNumbers });
  });

  it('a tease pointing ahead but older than the last reset is not live', () => {
    const tease = makeEvent({ kind: 'tease', announcedAt: daysBefore(3.5), effectiveAt: at(4) });
    expect(forecastOf([...history(), tease])).toMatchObject({ basis: 'cadence', announcedFor: null });
  });

  it('a live tease without effectiveAt changes nothing: it names no time', () => {
    const tease = makeEvent({ kind: 'tease', announcedAt: daysBefore(1), effectiveAt: null });
    expect(forecastOf([...history(), tease])).toEqual(forecastOf(history()));
  });

  it('a tease whose effectiveAt has passed changes nothing', () => {
    const tease = makeEvent({ kind: 'tease', announcedAt: daysBefore(2), effectiveAt: daysBefore(1) });
    expect(forecastOf([...history(), tease])).toEqual(forecastOf(history()));
  });

  it('a pending reset wins over a tease', () => {
    const tease = makeEvent({ kind: 'tease', announcedAt: daysBefore(1), effectiveAt: at(1) });
    const pending = resetDaysAgo(0.5, { effectiveAt: at(2) });
    expect(forecastOf([...history(), tease, pending])).toMatchObject({ basis: 'announced', announcedFor: at(2) });
  });
});

describe('no data', () => {
  it.each([
    ['no events', []],
    ['only drafts', [resetDaysAgo(3, { verified: false }), resetDaysAgo(1, { verified: false })]],
    [
      "only another provider's events",
      resetsWithGaps([1, 1, 1, 1, 1, 1], 1).map((event) => ({ ...event, provider: 'provider_b' as const })),
    ],
  ])('with %s: no_data and nulls', (_, events) => {
    expect(forecastOf(events)).toEqual({
      provider: 'provider_a',
      basis: 'no_data',
      elapsedDays: null,
      sampleSize: 0,
      ...noNumbers,
      announcedFor: null,
    });
  });

  it('events but no reset: insufficient, with no elapsed time', () => {
    expect(forecastOf([makeEvent({ kind: 'promo', announcedAt: daysBefore(2) })])).toMatchObject({
      basis: 'insufficient',
      elapsedDays: null,
      sampleSize: 0,
    });
  });
});

describe('forecastResponse', () => {
  it('one forecast per provider, in the enumeration order, stamped with now', () => {
    const events = [...resetsWithGaps([4, 6, 8, 10, 12], 5), resetDaysAgo(2, { provider: 'provider_c' })];
    const summaries = {
      provider_a: summarizeProvider('provider_a', events, NOW),
      provider_b: summarizeProvider('provider_b', events, NOW),
      provider_c: summarizeProvider('provider_c', events, NOW),
    };
    const response = forecastResponse(summaries, NOW);
    expect(ForecastResponseSchema.parse(response)).toEqual(response);
    expect(response.updatedAt).toBe(NOW.toISOString());
    expect(response.providers.map((entry) => [entry.provider, entry.basis])).toEqual([
      ['provider_a', 'cadence'],
      ['provider_b', 'no_data'],
      ['provider_c', 'insufficient'],
    ]);
  });
});

describe('chanceByDay', () => {
  it('counts the gaps ending within each day, as the published probabilities do', () => {
    // Gaps 4, 6, 8, 10, 12, t = 5: longer 6, 8, 10, 12; ending by day 1 … 8 after now: 1, 1, 2, 2, 3, 3, 4, 4.
    const summary = summarizeProvider('provider_a', resetsWithGaps([4, 6, 8, 10, 12], 5), NOW);
    expect(chanceByDay(summary, NOW, 8)).toEqual([0.25, 0.25, 0.5, 0.5, 0.75, 0.75, 1, 1]);
    expect(chanceByDay(summarizeProvider('provider_a', resetsWithGaps([1, 1], 1), NOW), NOW)).toBeNull();
  });

  it('measures t to the millisecond', () => {
    const justBefore = new Date(NOW.getTime() - MS_PER_HOUR);
    const summary = summarizeProvider('provider_a', resetsWithGaps([1, 2, 2, 2, 2], 1), justBefore);
    // At t = 23 h, the 1-day gap is still ahead: 1 of 5 ends within a day (≤ 47 h), all 5 within 2 days.
    expect(chanceByDay(summary, justBefore, 2)).toEqual([0.2, 1]);
  });
});

describe('quantileType7', () => {
  it('interpolates between the closest ranks', () => {
    expect(quantileType7([6, 8, 10, 12], 0.25)).toBe(7.5);
    expect(quantileType7([6, 8, 10, 12], 0.75)).toBe(10.5);
    expect(quantileType7([3], 0.25)).toBe(3);
    expect(quantileType7([1, 2], 0.5)).toBe(1.5);
  });
});
