import { describe, expect, it } from 'vitest';
import { secondsLeftInWindow } from './rate-limit.ts';

describe('secondsLeftInWindow: Retry-After of a 429 from a limiter of fixed windows', () => {
  it.each([
    ['2026-03-02T10:20:00.000Z', 60, 60],
    ['2026-03-02T10:20:15.200Z', 60, 45],
    ['2026-03-02T10:20:59.001Z', 60, 1],
    ['2026-03-02T10:20:59.999Z', 60, 1],
    ['2026-03-02T10:20:07.500Z', 10, 3],
  ])('at %s with a period of %i s: %i', (iso, period, expected) => {
    expect(secondsLeftInWindow(new Date(iso), period)).toBe(expected);
  });
});
