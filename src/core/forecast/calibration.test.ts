import { describe, expect, it } from 'vitest';
import { MS_PER_DAY } from '../ordering.ts';
import { chanceWithin, type Chance } from './rule.ts';
import { seededRandom } from '../seeded-random.ts';
import { resetsWithDrawnGaps } from './test-histories.ts';
import { providerForecastTrackRecord, replayCheckpoints } from './track-record.ts';

/**
 * Calibration on synthetic histories whose gaps are drawn, independently, from a known distribution.
 *
 * Why the rule should be calibrated: at a checkpoint with t elapsed, the next reset comes within h with the
 * true probability p(t) = P(g ≤ t + h | g > t) (given the age t, the length of the current gap follows the gap
 * distribution cut below t). The m basis gaps longer than t are independent draws from that same cut
 * distribution, so the count that ends by t + h is binomial(m, p(t)) and the forecast, that count over m, is
 * an unbiased estimate of p(t) whatever m is. Hence: among checkpoints grouped by anything that does not look
 * at the forecast's value (all of them, or by m), the mean forecast and the observed frequency agree, up to
 * binomial noise.
 *
 * Grouping by the forecast's own value (the reliability table) is different: a bin collects the forecasts
 * whose sampling error pushed them into it, so the observed frequency sits nearer the middle than the mean
 * forecast (regression to the mean), by up to about the forecast's own standard error. That is checked
 * separately, with that error in the tolerance.
 */

const CALIBRATION_TIMEOUT_MS = 120_000;
const RESETS = 2000;

const DISTRIBUTIONS = {
  /** Uniform between 1 and 9 days: a hazard that rises, forecasts across the whole range. */
  'uniform 1–9 days': (next: () => number) => 1 + 8 * next(),
  /** 2 days, then memoryless with a mean of 4 days: a flat hazard after the first 2 days. */
  '2 days + exponential (mean 4)': (next: () => number) => 2 - 4 * Math.log(1 - next()),
};

interface Scored {
  chance: Chance;
  happened: boolean;
}

/** Replays the track record's checkpoints and scores them against the drawn resets (outcomes computed here). */
function scoredCheckpoints(
  draw: (next: () => number) => number,
  seed: number,
  horizonDays: number,
  forecastDays = horizonDays,
): Scored[] {
  const next = seededRandom(seed);
  const { events, endMs } = resetsWithDrawnGaps(RESETS, () => draw(next));
  const resetTimes = events.map((event) => Date.parse(event.announcedAt));
  const scored: Scored[] = [];
  let following = 0;
  for (const { atMs, judgement } of replayCheckpoints('provider_a', events, new Date(endMs))) {
    const chance = chanceWithin(judgement, forecastDays);
    if (chance === null || atMs + horizonDays * MS_PER_DAY > endMs) continue;
    while ((resetTimes[following] ?? Infinity) <= atMs) following += 1;
    scored.push({ chance, happened: (resetTimes[following] ?? Infinity) <= atMs + horizonDays * MS_PER_DAY });
  }
  return scored;
}

/**
 * How many binomial standard errors the observed frequency lies from the mean forecast. Outcomes of 1-day
 * windows at 24 h checkpoints never overlap; 7-day windows overlap 7 checkpoints, so at least n/7 of them are
 * independent: the standard error is widened by √h. (p(1 − p) is floored at 0.01 so a near-certain group
 * is not held to a zero-width band.)
 */
function deviationInStandardErrors(group: readonly Scored[], horizonDays: number): number {
  const meanForecast = group.reduce((sum, { chance }) => sum + chance.hits / chance.outOf, 0) / group.length;
  const observed = group.filter(({ happened }) => happened).length / group.length;
  const standardError = Math.sqrt((Math.max(meanForecast * (1 - meanForecast), 0.01) * horizonDays) / group.length);
  return Math.abs(observed - meanForecast) / standardError;
}

/**
 * 4 standard errors: a correct rule strays that far about once in 16,000 groups. Observed with this seed: at
 * most 0.85; over seeds 1 to 12, at most 1.5. The wrong rule below lands 38 standard errors away.
 */
const TOLERANCE_IN_STANDARD_ERRORS = 4;
const MIN_GROUP = 200;

describe('calibration on histories drawn from a known distribution', () => {
  for (const [name, draw] of Object.entries(DISTRIBUTIONS)) {
    it(`${name}: mean forecast and observed frequency agree, overall and by the number of gaps behind the forecast`, {
      timeout: CALIBRATION_TIMEOUT_MS,
    }, () => {
      for (const horizonDays of [1, 7]) {
        const scored = scoredCheckpoints(draw, 20261123, horizonDays);
        const groups = [
          scored,
          scored.filter(({ chance }) => chance.outOf <= 5),
          scored.filter(({ chance }) => chance.outOf > 5 && chance.outOf <= 10),
          scored.filter(({ chance }) => chance.outOf > 10),
        ];
        for (const group of groups) {
          expect(group.length).toBeGreaterThanOrEqual(MIN_GROUP);
          expect(deviationInStandardErrors(group, horizonDays)).toBeLessThanOrEqual(TOLERANCE_IN_STANDARD_ERRORS);
        }
      }
    });
  }

  it('the same check catches a wrong rule: the 2-day chance presented as the 1-day chance', {
    timeout: CALIBRATION_TIMEOUT_MS,
  }, () => {
    const wrong = scoredCheckpoints(DISTRIBUTIONS['uniform 1–9 days'], 20261123, 1, 2);
    expect(deviationInStandardErrors(wrong, 1)).toBeGreaterThan(TOLERANCE_IN_STANDARD_ERRORS);
  });

  it('the published reliability table: each well-filled bin within its sampling error', {
    timeout: CALIBRATION_TIMEOUT_MS,
  }, () => {
    const draw = DISTRIBUTIONS['uniform 1–9 days'];
    const next = seededRandom(20261123);
    const { events, endMs } = resetsWithDrawnGaps(RESETS, () => draw(next));
    const record = providerForecastTrackRecord('provider_a', events, new Date(endMs));
    for (const horizonDays of [1, 7] as const) {
      // The forecasts' own sampling variance per bin: a proportion from m gaps, with one success and one
      // failure added so that 0 and 1 (often counted from very few gaps) do not claim to be exact.
      const variance = new Array<number>(10).fill(0);
      const counts = new Array<number>(10).fill(0);
      for (const { chance } of scoredCheckpoints(draw, 20261123, horizonDays)) {
        const bin = Math.min(9, Math.floor((10 * chance.hits) / chance.outOf));
        const smoothed = (chance.hits + 1) / (chance.outOf + 2);
        variance[bin]! += (smoothed * (1 - smoothed)) / (chance.outOf + 2);
        counts[bin]! += 1;
      }
      const table = record.horizons[horizonDays === 1 ? '1d' : '7d'].reliability;
      expect(table.map((bin) => bin.count)).toEqual(counts);
      const wellFilled = table.filter((bin) => bin.count >= 100);
      expect(wellFilled.length).toBeGreaterThanOrEqual(4);
      for (const bin of wellFilled) {
        const index = table.indexOf(bin);
        const p = bin.meanForecast!;
        const outcomeVariance = (Math.max(p * (1 - p), 0.01) * horizonDays) / bin.count;
        const forecastVariance = variance[index]! / counts[index]!;
        // 3 standard errors of the two together (observed with this seed: at most 1.22).
        expect(Math.abs(bin.observedFrequency! - p)).toBeLessThanOrEqual(
          3 * Math.sqrt(outcomeVariance + forecastVariance),
        );
      }
    }
  });
});
