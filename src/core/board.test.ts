import { describe, expect, it } from 'vitest';
import { deriveBoard, deriveNextEstimate, deriveProviderStatus, resetGapSeries } from './board.ts';
import { MS_PER_DAY } from './ordering.ts';
import { StatusResponseSchema, type Event } from './schemas.ts';
import { daysBefore, makeEvent, NOW, resetDaysAgo, resetsWithGaps } from './test-events.ts';

const statusOf = (events: Event[], now: Date = NOW) => deriveProviderStatus('provider_a', events, now);
const msAfter = (iso: string, ms: number) => new Date(Date.parse(iso) + ms);

describe('deriveBoard', () => {
  it('answers one entry per provider, in the enumeration order, stamped with now', () => {
    const board = deriveBoard([resetDaysAgo(3), resetDaysAgo(2, { provider: 'provider_c' })], NOW);
    expect(board.updatedAt).toBe(NOW.toISOString());
    expect(board.providers.map((entry) => entry.provider)).toEqual(['provider_a', 'provider_b', 'provider_c']);
    expect(board.providers.map((entry) => entry.status)).toEqual(['waiting', 'no_data', 'waiting']);
    expect(StatusResponseSchema.parse(board)).toEqual(board);
  });
});

describe('no_data', () => {
  it.each([
    ['no events at all', []],
    ['only drafts', [resetDaysAgo(3, { verified: false }), makeEvent({ kind: 'tease', verified: false })]],
    ["only another provider's events", [resetDaysAgo(3, { provider: 'provider_b' })]],
    ['only events announced after now', [resetDaysAgo(-1)]],
  ])('with %s: nulls everywhere, never NaN or a guess', (_, events) => {
    expect(statusOf(events)).toEqual({
      provider: 'provider_a',
      daysSince: null,
      status: 'no_data',
      lastReset: null,
      latestSignal: null,
      nextEstimate: null,
      stats: {
        totalResets: 0,
        medianIntervalDays: null,
        meanIntervalDays: null,
        longestWaitDays: null,
        hourHistogramUtc: new Array(24).fill(0),
        firstRecordedAt: null,
      },
    });
  });
});

describe('lastReset, latestSignal, daysSince', () => {
  it('with one reset: days since it, and no cadence yet', () => {
    const only = resetDaysAgo(3);
    const status = statusOf([only]);
    expect(status).toMatchObject({
      lastReset: only,
      latestSignal: only,
      daysSince: 3,
      status: 'waiting',
      nextEstimate: null,
    });
    expect(status.stats).toMatchObject({
      totalResets: 1,
      medianIntervalDays: null,
      meanIntervalDays: null,
      longestWaitDays: null,
    });
  });

  it('measures from the effective time, not the announcement', () => {
    const reset = resetDaysAgo(30, { effectiveAt: daysBefore(29) });
    expect(statusOf([reset]).daysSince).toBe(29);
  });

  it('lastReset is the latest effective reset, even when it was announced earlier than another', () => {
    const announcedFirstEffectiveLast = resetDaysAgo(12, { effectiveAt: daysBefore(5) });
    const announcedLast = resetDaysAgo(10);
    const status = statusOf([announcedLast, announcedFirstEffectiveLast]);
    expect(status.lastReset).toEqual(announcedFirstEffectiveLast);
    expect(status.latestSignal).toEqual(announcedLast);
  });

  it('latestSignal is the newest announcement of any kind', () => {
    const promo = makeEvent({ kind: 'promo', announcedAt: daysBefore(1) });
    const status = statusOf([resetDaysAgo(5), promo, makeEvent({ kind: 'boost', announcedAt: daysBefore(2) })]);
    expect(status.latestSignal).toEqual(promo);
  });

  it('ignores drafts and events not yet announced at now', () => {
    const published = resetDaysAgo(5);
    const status = statusOf([published, resetDaysAgo(1, { verified: false }), resetDaysAgo(-2)]);
    expect(status.lastReset).toEqual(published);
    expect(status.stats.totalResets).toBe(1);
  });
});

describe('cadence statistics', () => {
  it('with 2 resets: one gap is the median, mean and longest wait, and sets nextEstimate', () => {
    const [first, second] = resetsWithGaps([10], 4);
    const status = statusOf([first!, second!]);
    expect(status.stats).toMatchObject({ medianIntervalDays: 10, meanIntervalDays: 10, longestWaitDays: 10 });
    expect(status.nextEstimate).toBe(new Date(Date.parse(second!.announcedAt) + 10 * MS_PER_DAY).toISOString());
  });

  it('takes the middle of an even number of gaps as their mean', () => {
    expect(statusOf(resetsWithGaps([4, 10], 1)).stats.medianIntervalDays).toBe(7);
  });

  it('with 10 resets the median covers all 9 gaps', () => {
    const status = statusOf(resetsWithGaps([30, 30, 30, 30, 30, 10, 10, 10, 10], 1));
    expect(status.stats).toMatchObject({ totalResets: 10, medianIntervalDays: 30, longestWaitDays: 30 });
  });

  it('with 11 resets the median forgets the oldest gap, mean and longest wait keep it', () => {
    const status = statusOf(resetsWithGaps([30, 30, 30, 30, 30, 10, 10, 10, 10, 10], 1));
    expect(status.stats).toMatchObject({
      totalResets: 11,
      medianIntervalDays: 10,
      meanIntervalDays: 20,
      longestWaitDays: 30,
    });
  });

  it('leaves a nextEstimate in the past as it is (any time now, not a missed schedule)', () => {
    const status = statusOf(resetsWithGaps([5, 5], 20));
    expect(Date.parse(status.nextEstimate!)).toBe(NOW.getTime() - 15 * MS_PER_DAY);
  });

  it('counts reset announcements per UTC hour, pending ones too, and nothing else', () => {
    const events = [
      resetDaysAgo(9, { announcedAt: '2026-06-01T00:30:00.000Z' }),
      resetDaysAgo(8, { announcedAt: '2026-06-02T23:59:59.999Z' }),
      resetDaysAgo(7, { announcedAt: '2026-06-03T23:00:00.000Z' }),
      resetDaysAgo(1, { announcedAt: '2026-06-14T05:00:00.000Z', effectiveAt: '2026-06-20T10:00:00.000Z' }),
      makeEvent({ kind: 'promo', announcedAt: '2026-06-04T12:00:00.000Z' }),
    ];
    const expected = new Array(24).fill(0);
    expected[0] = 1;
    expected[5] = 1;
    expected[23] = 2;
    expect(statusOf(events).stats.hourHistogramUtc).toEqual(expected);
  });

  it('firstRecordedAt is the earliest announcement of any kind', () => {
    const oldestTease = makeEvent({ kind: 'tease', announcedAt: daysBefore(40) });
    expect(statusOf([resetDaysAgo(20), oldestTease]).stats.firstRecordedAt).toBe(oldestTease.announcedAt);
  });
});

describe('pending resets (effective time still ahead)', () => {
  const earlier = resetDaysAgo(20);
  const pending = resetDaysAgo(1, { effectiveAt: new Date(NOW.getTime() + 2 * MS_PER_DAY).toISOString() });

  it('count in totalResets but not as lastReset or in the gaps, and make the board a tease', () => {
    const status = statusOf([earlier, pending]);
    expect(status).toMatchObject({ status: 'tease', lastReset: earlier, latestSignal: pending, daysSince: 20 });
    expect(status.stats).toMatchObject({ totalResets: 2, medianIntervalDays: null });
  });

  it('become the last reset once their time has come', () => {
    const later = msAfter(pending.effectiveAt!, 60 * 60 * 1000);
    const status = statusOf([earlier, pending], later);
    expect(status).toMatchObject({ status: 'reset_now', lastReset: pending });
    expect(status.stats.medianIntervalDays).toBeCloseTo(22, 10);
  });
});

describe('status words and their precedence', () => {
  const cadence = resetsWithGaps([10, 10], 15); // median 10 days; the last reset exactly 15 days ago

  it('reset_now lasts strictly less than 24 hours', () => {
    const reset = resetDaysAgo(1);
    expect(statusOf([reset], msAfter(reset.announcedAt, MS_PER_DAY - 1)).status).toBe('reset_now');
    expect(statusOf([reset], msAfter(reset.announcedAt, MS_PER_DAY)).status).toBe('waiting');
  });

  it('overdue only past 1.5 times the median gap', () => {
    const last = cadence.at(-1)!;
    expect(statusOf(cadence).status).toBe('waiting');
    expect(statusOf(cadence, msAfter(last.announcedAt, 15 * MS_PER_DAY + 1)).status).toBe('overdue');
  });

  it('a tease newer than the last reset counts for 7 days, not one millisecond more', () => {
    const tease = makeEvent({ kind: 'tease', announcedAt: daysBefore(2) });
    const events = [resetDaysAgo(10), tease];
    expect(statusOf(events).status).toBe('tease');
    expect(statusOf(events, msAfter(tease.announcedAt, 7 * MS_PER_DAY - 1)).status).toBe('tease');
    expect(statusOf(events, msAfter(tease.announcedAt, 7 * MS_PER_DAY)).status).toBe('waiting');
  });

  it('a stale tease still counts while its effective time lies ahead', () => {
    const tease = makeEvent({ kind: 'tease', announcedAt: daysBefore(9), effectiveAt: daysBefore(-1) });
    expect(statusOf([resetDaysAgo(12), tease]).status).toBe('tease');
  });

  it('a tease older than the last reset says nothing', () => {
    expect(statusOf([makeEvent({ kind: 'tease', announcedAt: daysBefore(4) }), resetDaysAgo(3)]).status).toBe(
      'waiting',
    );
  });

  it('a fresh tease with no reset yet is a tease', () => {
    expect(statusOf([makeEvent({ kind: 'tease', announcedAt: daysBefore(1) })]).status).toBe('tease');
  });

  it('banked when the latest signal is a banked reset card, not when an older one is', () => {
    expect(statusOf([resetDaysAgo(5), makeEvent({ kind: 'banked', announcedAt: daysBefore(2) })]).status).toBe(
      'banked',
    );
    expect(statusOf([makeEvent({ kind: 'banked', announcedAt: daysBefore(6) }), resetDaysAgo(5)]).status).toBe(
      'waiting',
    );
  });

  it('waiting with promotions, boosts and no cadence', () => {
    expect(
      statusOf([makeEvent({ kind: 'promo' }), makeEvent({ kind: 'boost', announcedAt: daysBefore(3) })]).status,
    ).toBe('waiting');
  });

  it.each<[string, Event[], string]>([
    [
      'reset_now over a live tease',
      [makeEvent({ kind: 'tease', announcedAt: daysBefore(0.5) }), resetDaysAgo(0.25)],
      'reset_now',
    ],
    [
      'tease over banked',
      [
        resetDaysAgo(5),
        makeEvent({ kind: 'tease', announcedAt: daysBefore(2) }),
        makeEvent({ kind: 'banked', announcedAt: daysBefore(1) }),
      ],
      'tease',
    ],
    [
      'banked over overdue',
      [...resetsWithGaps([2, 2], 30), makeEvent({ kind: 'banked', announcedAt: daysBefore(1) })],
      'banked',
    ],
    ['overdue over waiting', resetsWithGaps([2, 2], 30), 'overdue'],
  ])('%s', (_, events, expected) => {
    expect(statusOf(events).status).toBe(expected);
  });
});

describe('deriveNextEstimate', () => {
  it.each([
    [0, 0],
    [1, 0],
    [2, 1],
    [10, 9],
    [14, 9],
  ])('with %i resets the median rests on %i gaps', (resetCount, sampleSize) => {
    const events = resetCount === 0 ? [] : resetsWithGaps(new Array(resetCount - 1).fill(7), 2);
    expect(deriveNextEstimate('provider_a', events, NOW).sampleSize).toBe(sampleSize);
  });

  it('agrees with the board and says what the estimate is not', () => {
    const events = resetsWithGaps([6, 8, 7], 3);
    const status = deriveProviderStatus('provider_a', events, NOW);
    expect(deriveNextEstimate('provider_a', events, NOW)).toEqual({
      provider: 'provider_a',
      lastReset: status.lastReset,
      daysSince: status.daysSince,
      nextEstimate: status.nextEstimate,
      medianIntervalDays: 7,
      sampleSize: 3,
      note: expect.stringMatching(/not a vendor schedule/),
    });
  });

  it('says a passed estimate passed, with its date, and never "any time now"', () => {
    // Resets 2 days apart, the last 10 days before NOW (2026-06-15 12:00): the estimate was 2026-06-07 12:00.
    const note = deriveNextEstimate('provider_a', resetsWithGaps([2, 2], 10), NOW).note;
    expect(note).toContain('It passed on 2026-06-07 12:00 UTC with no reset since');
    expect(note).toContain('get_forecast');
    expect(note).not.toMatch(/any time now/i);
    expect(deriveNextEstimate('provider_a', resetsWithGaps([2, 2], 1), NOW).note).not.toContain('passed');
  });
});

describe('resetGapSeries', () => {
  it('lists the gaps between effective resets, oldest first, dated by the reset that ended them', () => {
    const events = resetsWithGaps([3, 5], 2);
    expect(resetGapSeries('provider_a', events, NOW)).toEqual([
      { endedAt: events[1]!.announcedAt, days: 3 },
      { endedAt: events[2]!.announcedAt, days: 5 },
    ]);
    expect(resetGapSeries('provider_b', events, NOW)).toEqual([]);
  });
});
