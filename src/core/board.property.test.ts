import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveBoard, deriveProviderStatus, statusFromSummary } from './board.ts';
import { summarizeProvider } from './history.ts';
import { EVENT_KINDS, PROVIDERS } from './enums.ts';
import { MS_PER_DAY, MS_PER_HOUR } from './ordering.ts';
import { StatusResponseSchema, type Event } from './schemas.ts';
import { makeEvent } from './test-events.ts';
import { scaled } from '../../scripts/lib/load-scaled.ts';

const START = Date.parse('2025-01-01T00:00:00.000Z');
const SPAN = 120 * MS_PER_DAY;
const iso = (ms: number) => new Date(ms).toISOString();

const eventFields = fc.record({
  provider: fc.constantFrom(...PROVIDERS),
  kind: fc.constantFrom(...EVENT_KINDS),
  // Three hours a day, so that equal times (and the tie-breaks they need) come up often.
  announcedMs: fc
    .tuple(fc.integer({ min: 0, max: SPAN / MS_PER_DAY }), fc.constantFrom(0, 9, 17))
    .map(([day, hour]) => START + day * MS_PER_DAY + hour * MS_PER_HOUR),
  delayMs: fc.option(
    fc.integer({ min: 1, max: 20 * 24 }).map((hours) => hours * MS_PER_HOUR),
    { freq: 4 },
  ),
  verified: fc.constantFrom(true, true, true, false),
});

/** Event lists with unique ids, long enough that cadences, pending resets and ties form. */
const eventLists = fc.array(eventFields, { maxLength: 60, size: 'medium' }).map((fieldsList) =>
  fieldsList.map(({ provider, kind, announcedMs, delayMs, verified }, index) =>
    makeEvent({
      id: `p${index}`,
      provider,
      kind,
      announcedAt: iso(announcedMs),
      effectiveAt: delayMs === null ? null : iso(announcedMs + delayMs),
      verified,
    }),
  ),
);
const eventsAndAPermutation = eventLists.chain((events) =>
  fc.tuple(fc.constant(events), fc.shuffledSubarray(events, { minLength: events.length, maxLength: events.length })),
);
const nows = fc.integer({ min: START, max: START + SPAN + 60 * MS_PER_DAY }).map((ms) => new Date(ms));

// Property tests run many cases: a generous timeout so a busy machine slows them down without failing them.
describe('board invariants', { timeout: scaled(120_000) }, () => {
  it('is a valid StatusResponse: no NaN, no negative days, histograms of 24 hours', () => {
    fc.assert(
      fc.property(eventLists, nows, (events, now) => {
        expect(StatusResponseSchema.safeParse(deriveBoard(events, now)).success).toBe(true);
      }),
    );
  });

  it('each histogram sums to the reset count', () => {
    fc.assert(
      fc.property(eventLists, nows, (events, now) => {
        for (const { stats } of deriveBoard(events, now).providers) {
          expect(stats.hourHistogramUtc.reduce((sum, count) => sum + count, 0)).toBe(stats.totalResets);
        }
      }),
    );
  });

  it('the median lies between the shortest and the longest gap', () => {
    fc.assert(
      fc.property(eventLists, nows, (events, now) => {
        for (const { provider, stats } of deriveBoard(events, now).providers) {
          const effectiveTimes = events
            .filter(
              (e) =>
                e.verified &&
                e.provider === provider &&
                e.kind === 'reset' &&
                Date.parse(e.announcedAt) <= now.getTime(),
            )
            .map((e) => Date.parse(e.effectiveAt ?? e.announcedAt))
            .filter((time) => time <= now.getTime())
            .sort((a, b) => a - b);
          if (stats.medianIntervalDays === null) {
            expect(effectiveTimes.length).toBeLessThan(2);
            continue;
          }
          const gaps = effectiveTimes.slice(1).map((time, i) => (time - effectiveTimes[i]!) / MS_PER_DAY);
          expect(stats.medianIntervalDays).toBeGreaterThanOrEqual(Math.min(...gaps));
          expect(stats.medianIntervalDays).toBeLessThanOrEqual(stats.longestWaitDays!);
          expect(stats.longestWaitDays).toBe(Math.max(...gaps));
        }
      }),
    );
  });

  it('does not depend on the order of the input', () => {
    fc.assert(
      fc.property(eventsAndAPermutation, nows, ([events, shuffled], now) => {
        expect(deriveBoard(shuffled, now)).toEqual(deriveBoard(events, now));
      }),
    );
  });

  it('drafts never change the result', () => {
    fc.assert(
      fc.property(eventLists, eventLists, nows, (events, extra, now) => {
        const drafts: Event[] = extra.map((event) => ({ ...event, id: `draft-${event.id}`, verified: false }));
        expect(deriveBoard([...events, ...drafts], now)).toEqual(deriveBoard(events, now));
      }),
    );
  });

  it('estimates only from a last reset and a median, and never before the last reset', () => {
    fc.assert(
      fc.property(eventLists, nows, (events, now) => {
        for (const entry of deriveBoard(events, now).providers) {
          const computable = entry.lastReset !== null && entry.stats.medianIntervalDays !== null;
          expect(entry.nextEstimate !== null).toBe(computable);
          if (entry.nextEstimate !== null) {
            const lastEffective = Date.parse(entry.lastReset!.effectiveAt ?? entry.lastReset!.announcedAt);
            expect(Date.parse(entry.nextEstimate)).toBeGreaterThanOrEqual(lastEffective);
          }
          expect(entry.status === 'no_data').toBe(entry.latestSignal === null);
        }
      }),
    );
  });

  it('a summary made at build time answers, at any later moment, exactly as the whole history does', () => {
    const afterEveryAnnouncement = START + SPAN + 24 * MS_PER_HOUR;
    fc.assert(
      fc.property(
        eventLists,
        fc.integer({ min: 0, max: 30 * 24 }),
        fc.integer({ min: 0, max: 40 * 24 }),
        (events, buildHours, laterHours) => {
          const builtAt = new Date(afterEveryAnnouncement + buildHours * MS_PER_HOUR);
          const now = new Date(builtAt.getTime() + laterHours * MS_PER_HOUR);
          for (const provider of PROVIDERS) {
            expect(statusFromSummary(summarizeProvider(provider, events, builtAt), now)).toEqual(
              deriveProviderStatus(provider, events, now),
            );
          }
        },
      ),
    );
  });
});
