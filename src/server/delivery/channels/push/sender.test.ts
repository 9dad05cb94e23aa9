import { describe, expect, it } from 'vitest';
import { retryDelaySeconds } from '../../policy.ts';
import { outcomeOf } from './sender.ts';

describe('what a push service answer means', () => {
  it.each([
    [201, 'sent'],
    [200, 'sent'],
    [404, 'gone'],
    [410, 'gone'],
    [429, 'retry'],
    [500, 'retry'],
    [503, 'retry'],
    [400, 'failed'],
    [403, 'failed'],
    [413, 'failed'],
  ] as const)('%i is %s', (status, kind) => {
    expect(outcomeOf(status, undefined).kind).toBe(kind);
  });

  it('backs off 30 s after the first failed try, doubling to at most an hour, or as long as the service asked within 1 s to 6 h', () => {
    // Counted in failed tries so far: the first failure waits 30 s.
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map((failures) => retryDelaySeconds(failures, undefined))).toEqual([
      30, 60, 120, 240, 480, 960, 1920, 3600, 3600,
    ]);
    expect(retryDelaySeconds(1, 7)).toBe(7);
    expect(retryDelaySeconds(1, 0)).toBe(1);
    expect(retryDelaySeconds(1, 2.2)).toBe(3);
    expect(retryDelaySeconds(1, 21_600)).toBe(21_600);
    expect(retryDelaySeconds(1, 86_400)).toBe(21_600);
  });
});
