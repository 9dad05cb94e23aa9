import { describe, expect, it } from 'vitest';
import { retryAfterSeconds } from './retry-after.ts';

describe('retryAfterSeconds', () => {
  const now = new Date('2026-06-15T12:00:00.000Z');

  it('reads delay-seconds, with a fraction as Discord sends it', () => {
    expect(retryAfterSeconds('120', now)).toBe(120);
    expect(retryAfterSeconds(' 1.5 ', now)).toBe(1.5);
  });

  it('reads an HTTP date as the seconds until it, none for one past', () => {
    expect(retryAfterSeconds('Mon, 15 Jun 2026 12:01:30 GMT', now)).toBe(90);
    expect(retryAfterSeconds('Mon, 15 Jun 2026 11:00:00 GMT', now)).toBe(0);
  });

  it('reads nothing from an absent, empty or unreadable header, and never a number as a date', () => {
    for (const header of [null, '', '  ', 'soon', '-5', '1.5.2'])
      expect(retryAfterSeconds(header, now), String(header)).toBeUndefined();
  });
});
