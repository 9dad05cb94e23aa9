import { describe, expect, it } from 'vitest';
import { relativeTime } from './relative-time.ts';

const NOW = Date.parse('2026-06-15T12:00:00.000Z');
const HOUR = 3_600_000;

describe('relativeTime', () => {
  it.each<[number, 'en' | 'zh', string]>([
    [NOW - 6.5 * 24 * HOUR, 'en', '6 days ago'],
    [NOW - 3 * HOUR, 'en', '3 hours ago'],
    [NOW - 5 * 60_000, 'en', '5 minutes ago'],
    [NOW - 10_000, 'en', 'this minute'],
    [NOW + 2 * 24 * HOUR, 'en', 'in 2 days'],
    [NOW - 6.5 * 24 * HOUR, 'zh', '6 天前'],
    [NOW + 2 * 24 * HOUR, 'zh', '后天'],
    [NOW - 3 * HOUR, 'zh', '3 小时前'],
  ])('%i (%s) → %s', (target, locale, expected) => {
    expect(relativeTime(target, NOW, locale)).toBe(expected);
  });
});
