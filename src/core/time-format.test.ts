import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utcDay } from './time-format.ts';

/** The reference: Intl's own parts of the day in UTC (en-US names the months as the board does: `Sep`, not `Sept`). */
function intlDay(iso: string): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' })
    .formatToParts(new Date(iso))
    .filter((part) => part.type !== 'literal');
  const of = (type: string) => parts.find((part) => part.type === type)?.value;
  return `${of('day')} ${of('month')} ${of('year')}`;
}

describe('utcDay', () => {
  it.each([
    ['2026-03-05T17:04:00.000Z', '5 Mar 2026'],
    ['2026-09-30T23:59:59.999Z', '30 Sep 2026'],
    ['2026-12-31T23:30:00-02:00', '1 Jan 2027'],
    ['2027-01-01T00:30:00+01:00', '31 Dec 2026'],
  ])('writes %s as %s, the day in UTC', (iso, day) => {
    expect(utcDay(iso)).toBe(day);
  });

  it('agrees with Intl for any instant from 1970 to 2200', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 7_258_118_400_000 }), (ms) => {
        const iso = new Date(ms).toISOString();
        expect(utcDay(iso)).toBe(intlDay(iso));
      }),
    );
  });

  it('refuses what is not an instant', () => {
    expect(() => utcDay('not a date')).toThrow(RangeError);
  });
});
