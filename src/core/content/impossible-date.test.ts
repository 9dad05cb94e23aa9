import { describe, expect, it } from 'vitest';
import { impossibleDateTime } from './impossible-date.ts';

describe('impossibleDateTime', () => {
  it.each([
    ['2026-02-30T10:00:00Z', 'the date 2026-02-30 does not exist: February 2026 has 28 days'],
    ['2028-02-30T10:00:00.000Z', 'the date 2028-02-30 does not exist: February 2028 has 29 days'],
    ['2026-04-31T00:00:00.000Z', 'the date 2026-04-31 does not exist: April 2026 has 30 days'],
    ['2026-00-10T00:00:00.000Z', 'the date 2026-00-10 does not exist: there is no month 00'],
    ['2026-06-00T00:00:00.000Z', 'the date 2026-06-00 does not exist: June 2026 has 30 days'],
    ['2026-06-01T23:60:00.000Z', 'the time 23:60:00 does not exist: hours go to 23, minutes and seconds to 59'],
  ])('says what does not exist in %s', (value, message) => {
    expect(impossibleDateTime(value)).toBe(message);
  });

  it('has nothing to say about dates that exist, or text that is no timestamp', () => {
    for (const value of ['2028-02-29T10:00:00.000Z', '2026-12-31T23:59:59.999Z', '2026-06-01', 'yesterday', '']) {
      expect(impossibleDateTime(value)).toBeUndefined();
    }
  });
});
