import { describe, expect, it } from 'vitest';
import { buildEdgeDataset } from '../dataset.ts';
import { MS_PER_DAY } from '../ordering.ts';
import type { Event } from '../schemas.ts';
import { makeEvent } from '../test-events.ts';
import { forecastScores, horizonsWorseThanBaseRate, scoresWorseThanBaseRate } from './skill.ts';
import { iso, START } from './test-histories.ts';
import { providerForecastTrackRecord } from './track-record.ts';
import { worseThanBaseRateNote } from './words.ts';

const day = (days: number) => START + days * MS_PER_DAY;
const resetsOn = (days: number[], provider: Event['provider'] = 'provider_a') =>
  days.map((on) => makeEvent({ id: `${provider}-d${on}`, provider, kind: 'reset', announcedAt: iso(day(on)) }));

describe('worse than the base rate', () => {
  it('compares the published scores: strictly higher is worse, equal is not, unknown is not', () => {
    // The numbers of the issue: Provider A's 24 h chance, 0.057 against the base rate's 0.047.
    expect(scoresWorseThanBaseRate({ brierScore: 0.057, baseRateBrierScore: 0.047 })).toBe(true);
    expect(scoresWorseThanBaseRate({ brierScore: 0.049, baseRateBrierScore: 0.049 })).toBe(false);
    expect(scoresWorseThanBaseRate({ brierScore: 0.132, baseRateBrierScore: 0.237 })).toBe(false);
    expect(scoresWorseThanBaseRate({ brierScore: null, baseRateBrierScore: 0.1 })).toBe(false);
    expect(scoresWorseThanBaseRate({ brierScore: 0.1, baseRateBrierScore: null })).toBe(false);
    expect(
      horizonsWorseThanBaseRate({
        '1d': { brierScore: 0.036, baseRateBrierScore: 0.009 },
        '7d': { brierScore: 0.154, baseRateBrierScore: 0.102 },
      }),
    ).toEqual(['1d', '7d']);
  });

  describe('a cadence that changed, worked by hand', () => {
    // Resets every 10 days (days 0 to 50: five gaps), then every 3 days (53, 56, 59); built at day 59.5.
    // Checkpoints from the sixth reset (day 50) every 24 h. P(1d) at t days after a reset is the share of the gaps
    // longer than t that end by t + 1: 0 at t = 0 and 1 (no gap of 1 or 2 days), and at t = 2 the share of 3-day
    // gaps: 0/5 on day 52, 1/6 on day 55, 2/7 on day 58, each followed by a reset the next day.
    // Scored (c + 1 day ≤ day 59.5): days 50 to 58, nine. Brier: (1 + (5/6)² + (5/7)²) / 9 = 0.2450.
    // Base rate 3/9; its Brier: (6 × (1/3)² + 3 × (2/3)²) / 9 = 2/9 = 0.2222.
    // P(7d) on days 50 to 52 (the ones scored) is 0 (no gap of 7 to 9 days), and a reset followed each time:
    // Brier 1; the base rate is 1, its Brier 0.
    const events = resetsOn([0, 10, 20, 30, 40, 50, 53, 56, 59]);
    const builtAt = new Date(day(59.5));

    it('scores worse than the base rate at both horizons', () => {
      const scores = forecastScores(providerForecastTrackRecord('provider_a', events, builtAt));
      expect(scores).toEqual({
        '1d': { brierScore: 0.245, baseRateBrierScore: 0.222 },
        '7d': { brierScore: 1, baseRateBrierScore: 0 },
      });
      expect(horizonsWorseThanBaseRate(scores)).toEqual(['1d', '7d']);
    });

    it('travels in the edge data set, so that the board can say so', () => {
      const dataset = buildEdgeDataset(events, builtAt);
      expect(dataset.providers.provider_a.forecastScores['1d']).toEqual({
        brierScore: 0.245,
        baseRateBrierScore: 0.222,
      });
      expect(dataset.providers.provider_b.forecastScores['1d']).toEqual({ brierScore: null, baseRateBrierScore: null });
    });

    it('is said in words beside the number, in both languages, with the scores', () => {
      const scores = forecastScores(providerForecastTrackRecord('provider_a', events, builtAt));
      expect(worseThanBaseRateNote(scores, 'en')).toBe(
        'So far the 24 h and 7-day chances have scored worse than the base rate (Brier 0.245 and 1.000 against the base rate’s 0.222 and 0.000; lower is better).',
      );
      expect(worseThanBaseRateNote(scores, 'zh')).toBe(
        '迄今为止，24 小时内和 7 天内重置可能性的预测表现均不如基准率：其布里尔分数分别为 0.245 和 1.000，基准率的布里尔分数分别为 0.222 和 0.000（越低越好）。',
      );
      const oneHorizon = { ...scores, '7d': { brierScore: 0.1, baseRateBrierScore: 0.2 } };
      expect(worseThanBaseRateNote(oneHorizon, 'en')).toBe(
        'So far the 24 h chance has scored worse than the base rate (Brier 0.245 against the base rate’s 0.222; lower is better).',
      );
      expect(worseThanBaseRateNote(oneHorizon, 'zh')).toBe(
        '迄今为止，24 小时内重置可能性的预测表现不如基准率：其布里尔分数为 0.245，基准率的布里尔分数为 0.222（越低越好）。',
      );
    });
  });

  it('a steady cadence scores better than the base rate: nothing to say', () => {
    // Resets every 7 days from day 0 to day 63, built at day 66. P(1d) is 1 exactly 6 days after a reset and 0
    // otherwise, and right every time: Brier 0. A reset followed 4 of the 31 checkpoints scored (days 35 to 65):
    // the base rate's Brier is 4/31 × 27/31 = 0.112. P(7d) is 1 and a reset always followed: 0 against 0.
    const events = resetsOn([0, 7, 14, 21, 28, 35, 42, 49, 56, 63]);
    const scores = forecastScores(providerForecastTrackRecord('provider_a', events, new Date(day(66))));
    expect(scores).toEqual({
      '1d': { brierScore: 0, baseRateBrierScore: 0.112 },
      '7d': { brierScore: 0, baseRateBrierScore: 0 },
    });
    expect(horizonsWorseThanBaseRate(scores)).toEqual([]);
    expect(worseThanBaseRateNote(scores, 'en')).toBeNull();
  });
});
