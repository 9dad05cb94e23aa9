import { describe, expect, it } from 'vitest';
import { LOCALES } from '../vocabulary.ts';
import { makeForecast } from '../test-events.ts';
import { FORECAST_BASES, type Forecast } from './schemas.ts';
import { forecastNote, forecastSentence } from './words.ts';

const base = makeForecast({ announcedFor: null });
const none = { probabilities: { '1d': null, '3d': null, '7d': null }, likelyWindow: null };

describe('the forecast sentence', () => {
  it.each([
    [
      base,
      '18 % chance of a reset within 24 h, 61 % within 7 days (from the last 20 gaps).',
      '根据最近 20 次间隔：24 小时内重置的可能性为 18 %，7 天内为 61 %。',
    ],
    [
      { ...base, ...none, basis: 'insufficient', sampleSize: 3 },
      'No forecast yet: only 3 gaps between resets recorded (5 needed).',
      '暂无预测：仅记录了 3 次重置间隔（至少需要 5 次）。',
    ],
    [
      { ...base, ...none, basis: 'insufficient', sampleSize: 1 },
      'No forecast yet: only 1 gap between resets recorded (5 needed).',
      '暂无预测：仅记录了 1 次重置间隔（至少需要 5 次）。',
    ],
    [
      { ...base, ...none, basis: 'insufficient', sampleSize: 0, elapsedDays: null },
      'No forecast yet: no gap between resets recorded (5 needed).',
      '暂无预测：尚未记录到重置间隔（至少需要 5 次）。',
    ],
    [
      { ...base, ...none, basis: 'beyond_history', elapsedDays: 12.345, sampleSize: 8 },
      'No forecast: the 12.3 days since the last reset match or pass every one of the last 8 gaps on record.',
      '暂无预测：距上次重置已过 12.3 天，不短于最近 8 次间隔中的任何一次。',
    ],
    [
      { ...base, ...none, basis: 'announced', announcedFor: '2026-11-24T17:00:00.000Z' },
      'A reset is announced for Tue 24 Nov 17:00 UTC.',
      '已宣布将于 11月24日 周二 17:00（UTC）重置。',
    ],
    [
      { ...base, ...none, basis: 'teased', announcedFor: '2026-11-29T09:30:00.000Z' },
      'A reset is teased for Sun 29 Nov 09:30 UTC, not confirmed.',
      '已预告将于 11月29日 周日 09:30（UTC）重置，尚未确认。',
    ],
    [{ ...base, ...none, basis: 'no_data', elapsedDays: null, sampleSize: 0 }, 'No data yet.', '暂无数据。'],
  ] as [Forecast, string, string][])('case %#', (forecast, english, chinese) => {
    expect(forecastSentence(forecast, 'en')).toBe(english);
    expect(forecastSentence(forecast, 'zh')).toBe(chinese);
  });

  it('has words for every basis in every language, and a note that says what the numbers are not', () => {
    for (const locale of LOCALES) {
      for (const basis of FORECAST_BASES)
        expect(forecastSentence({ ...base, basis }, locale).length).toBeGreaterThan(0);
    }
    expect(forecastNote('en')).toContain('not a vendor plan');
    expect(forecastNote('zh')).toContain('不是供应商的计划');
  });
});
