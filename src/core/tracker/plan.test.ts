import { describe, expect, it } from 'vitest';
import { planWindowTracker } from './plan.ts';

const plan = (query: string, locale: 'en' | 'zh' = 'en') => planWindowTracker(new URLSearchParams(query), locale);

describe('planWindowTracker', () => {
  it('turns wall times in a zone into a calendar link with offsets', () => {
    const result = plan(
      'provider=provider_c&reset=2026-11-21T18:30&weekly=2026-07-06T09:00&tz=America/New_York&locale=zh',
    );
    expect(result).toMatchObject({
      provider: 'provider_c',
      locale: 'zh',
      resetAt: '2026-11-21T18:30:00.000-05:00',
      weeklyAt: '2026-07-06T09:00:00.000-04:00',
      problems: [],
    });
    const link = new URL(result.calendarPath!, 'https://x.example');
    expect(link.pathname).toBe('/api/ics');
    expect(Object.fromEntries(link.searchParams)).toEqual({
      provider: 'provider_c',
      resetAt: '2026-11-21T18:30:00.000-05:00',
      weeklyAt: '2026-07-06T09:00:00.000-04:00',
      tz: 'America/New_York',
      locale: 'zh',
    });
  });

  it('defaults: provider A, the page language, UTC, and no link without a time', () => {
    expect(plan('', 'zh')).toMatchObject({
      provider: 'provider_a',
      locale: 'zh',
      timeZone: 'UTC',
      calendarPath: null,
      problems: [],
    });
  });

  it.each([
    ['reset=2026-11-21T18:30&tz=Mars/Olympus', ['time_zone']],
    ['reset=2026-03-29T02:30&tz=Europe/Berlin', ['reset_time']],
    ['weekly=2026-02-30T10:00&tz=UTC', ['weekly_time']],
    ['reset=yesterday&tz=UTC', ['reset_time']],
  ])('?%s has no link and says why', (query, problems) => {
    expect(plan(query)).toMatchObject({ problems, calendarPath: null });
  });
});
