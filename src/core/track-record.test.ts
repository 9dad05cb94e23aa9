import { describe, expect, it } from 'vitest';
import { MS_PER_DAY } from './ordering.ts';
import { daysBefore, NOW, resetDaysAgo, resetsWithGaps } from './test-events.ts';
import { estimateTrackRecord } from './track-record.ts';

describe('estimateTrackRecord', () => {
  it('checks each reset against the estimate shown just before it', () => {
    // Resets 10, 10, 14 and 6 days apart: estimates exist from the third reset on.
    const events = resetsWithGaps([10, 10, 14, 6], 5);
    const { checks, medianAbsoluteErrorDays } = estimateTrackRecord('provider_a', events, NOW);
    expect(checks.map((check) => check.reset.id)).toEqual(events.slice(2).map((event) => event.id));
    // Before the 3rd reset the median gap was 10 → on time; before the 4th, 10 → 4 days late;
    // before the 5th, median of 10, 10, 14 = 10 → 4 days early.
    expect(checks.map((check) => Math.round(check.errorDays * 1000) / 1000)).toEqual([0, 4, -4]);
    expect(medianAbsoluteErrorDays).toBe(4);
  });

  it('uses only what was known then: a later announcement does not change an earlier check', () => {
    const events = resetsWithGaps([10, 10], 5);
    const before = estimateTrackRecord('provider_a', events, NOW).checks;
    const later = resetDaysAgo(1);
    expect(estimateTrackRecord('provider_a', [...events, later], NOW).checks.slice(0, before.length)).toEqual(before);
  });

  it('is empty, with no median, while there is no history to estimate from', () => {
    expect(estimateTrackRecord('provider_a', [resetDaysAgo(3)], NOW)).toEqual({
      checks: [],
      medianAbsoluteErrorDays: null,
    });
    expect(estimateTrackRecord('provider_b', resetsWithGaps([5, 5], 1), NOW).checks).toEqual([]);
  });

  it('measures in days between effective times', () => {
    const events = [resetDaysAgo(30), resetDaysAgo(20), resetDaysAgo(12, { effectiveAt: daysBefore(8) })];
    const [check] = estimateTrackRecord('provider_a', events, NOW).checks;
    expect(check!.estimatedAt).toBe(new Date(NOW.getTime() - 10 * MS_PER_DAY).toISOString());
    expect(check!.errorDays).toBeCloseTo(2, 9);
  });
});
