import { describe, expect, it } from 'vitest';
import { TRANSLATIONS } from './index.ts';
import { minute, wallMinute, weekdayMinute } from './words.ts';

const chineseMinute = (iso: string, zone?: string) => minute('zh', iso, zone);

/**
 * The Chinese date forms (docs/glossary/zh.md, "Dates and times"): the date, then the time, then the zone in
 * full-width parentheses right after the time, from zh.json's `formats` and Intl's parts. Every expected string is
 * written by hand.
 */
describe('chineseMinute', () => {
  const INSTANT = '2026-12-03T14:03:00.000Z';

  it('writes UTC by default, as the server renders it', () => {
    expect(chineseMinute(INSTANT)).toBe('2026年12月3日 14:03（UTC）');
    expect(chineseMinute(INSTANT, 'UTC')).toBe('2026年12月3日 14:03（UTC）');
  });

  it('writes the reader’s zone as its offset, as the page script does in a GMT+8 browser', () => {
    expect(chineseMinute(INSTANT, 'Asia/Shanghai')).toBe('2026年12月3日 22:03（GMT+8）');
  });

  it('takes any ISO 8601 instant, with an offset too', () => {
    expect(chineseMinute('2026-12-03T22:03:00+08:00')).toBe('2026年12月3日 14:03（UTC）');
  });

  it('moves the date with the zone, across a month and a year', () => {
    expect(chineseMinute('2026-12-31T20:30:00Z', 'Asia/Shanghai')).toBe('2027年1月1日 04:30（GMT+8）');
    expect(chineseMinute('2026-03-01T02:00:00Z', 'America/New_York')).toBe('2026年2月28日 21:00（GMT-5）');
  });

  it('keeps a 24-hour clock with two digits (00:05, never 24:05 or 0:05)', () => {
    expect(chineseMinute('2026-06-15T00:05:00Z')).toBe('2026年6月15日 00:05（UTC）');
    expect(chineseMinute('2026-06-14T16:05:00Z', 'Asia/Shanghai')).toBe('2026年6月15日 00:05（GMT+8）');
  });

  it('names half-hour offsets and summer time, and writes an offset of zero as UTC', () => {
    expect(chineseMinute(INSTANT, 'Asia/Kolkata')).toBe('2026年12月3日 19:33（GMT+5:30）');
    expect(chineseMinute('2026-07-01T12:00:00Z', 'Europe/Berlin')).toBe('2026年7月1日 14:00（GMT+2）');
    expect(chineseMinute(INSTANT, 'Europe/London')).toBe('2026年12月3日 14:03（UTC）');
  });

  it('is the Chinese words’ form of a minute; the English one stays as it was', () => {
    expect(TRANSLATIONS.zh.formats.minute(INSTANT)).toBe('2026年12月3日 14:03（UTC）');
    expect(TRANSLATIONS.en.formats.minute(INSTANT)).toBe('2026-12-03 14:03 UTC');
  });
});

describe('the other Chinese date forms', () => {
  it('a moment within the next weeks, with its weekday', () => {
    expect(weekdayMinute('zh', '2026-11-24T17:00:00.000Z')).toBe('11月24日 周二 17:00（UTC）');
    expect(weekdayMinute('zh', null)).toBe('–');
  });

  it('a wall-clock time a reader typed, with no zone', () => {
    expect(wallMinute('zh', '2026-11-24T09:00')).toBe('2026年11月24日 09:00');
  });
});

describe('the English date forms, from en.json’s patterns', () => {
  it('a moment within the next weeks, with its weekday, and a day', () => {
    expect(weekdayMinute('en', '2026-11-24T17:00:00.000Z')).toBe('Tue 24 Nov 17:00 UTC');
    expect(TRANSLATIONS.en.formats.weekdayMinute(null)).toBe('–');
  });

  it('a wall-clock time a reader typed, and an instant in another zone', () => {
    expect(wallMinute('en', '2026-11-24T09:00')).toBe('2026-11-24 09:00');
    expect(minute('en', '2026-12-03T14:03:00.000Z', 'Asia/Tokyo')).toBe('2026-12-03 23:03 GMT+9');
  });
});

describe('plural forms, chosen by Intl.PluralRules for the number as written', () => {
  it('a whole number of one is singular in English; one written with a decimal is plural', () => {
    expect(TRANSLATIONS.en.forecastPage.withinDays(1)).toBe('1 day');
    expect(TRANSLATIONS.en.forecastPage.withinDays(14)).toBe('14 days');
    expect(TRANSLATIONS.en.ui.days(1)).toBe('1.0 days');
    expect(TRANSLATIONS.en.ui.days(3.46)).toBe('3.5 days');
  });

  it('Chinese has one form', () => {
    expect(TRANSLATIONS.zh.forecastPage.withinDays(1)).toBe('1 天内');
    expect(TRANSLATIONS.zh.ui.days(1)).toBe('1.0 天');
  });
});
