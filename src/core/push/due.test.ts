import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EVENT_KINDS } from '../vocabulary.ts';
import { makeEvent, NOW } from '../test-events.ts';
import type { Event } from '../schemas.ts';
import { dueNotifications } from './due.ts';

const at = (offsetMinutes: number) => new Date(NOW.getTime() + offsetMinutes * 60_000).toISOString();
const pairs = (events: readonly Event[], now: Date) =>
  dueNotifications(events, now).map(({ event, transition }) => `${event.id}/${transition}`);

describe('dueNotifications', () => {
  it('owes each published event announced by now one "announced" notification', () => {
    const events = [
      makeEvent({ id: 'past', announcedAt: at(-60) }),
      makeEvent({ id: 'exactly-now', announcedAt: at(0) }),
      makeEvent({ id: 'boost', kind: 'boost', announcedAt: at(-5) }),
    ];
    expect(pairs(events, NOW)).toEqual(['past/announced', 'exactly-now/announced', 'boost/announced']);
  });

  it('never owes drafts or events announced after now', () => {
    const events = [
      makeEvent({ id: 'draft', announcedAt: at(-60), verified: false }),
      makeEvent({ id: 'future', announcedAt: at(1) }),
      makeEvent({ id: 'future-reset', announcedAt: at(10), effectiveAt: at(20) }),
    ];
    expect(pairs(events, NOW)).toEqual([]);
  });

  it('owes a reset with a later effective time a second, "effective" notification once that time has come', () => {
    const pending = makeEvent({ id: 'pending', announcedAt: at(-30), effectiveAt: at(30) });
    expect(pairs([pending], NOW)).toEqual(['pending/announced']);
    expect(pairs([pending], new Date(at(30)))).toEqual(['pending/announced', 'pending/effective']);
  });

  it('gives no "effective" notification when the effective time is the announcement or not a reset', () => {
    const events = [
      makeEvent({ id: 'same-time', announcedAt: at(-30), effectiveAt: at(-30) }),
      makeEvent({ id: 'promo-later', kind: 'promo', announcedAt: at(-30), effectiveAt: at(-10) }),
    ];
    expect(pairs(events, NOW)).toEqual(['same-time/announced', 'promo-later/announced']);
  });

  it('agrees with a reference written from the decision, for any events and now', () => {
    const minutes = fc.integer({ min: -600, max: 600 });
    const eventArbitrary = fc
      .record({
        kind: fc.constantFrom(...EVENT_KINDS),
        announced: minutes,
        effectiveDelay: fc.option(fc.integer({ min: -10, max: 600 }), { nil: null }),
        verified: fc.boolean(),
      })
      .map(({ kind, announced, effectiveDelay, verified }) =>
        makeEvent({
          kind,
          announcedAt: at(announced),
          effectiveAt: effectiveDelay === null ? null : at(announced + Math.max(0, effectiveDelay)),
          verified,
        }),
      );
    fc.assert(
      fc.property(fc.array(eventArbitrary, { maxLength: 12 }), minutes, (events, nowOffset) => {
        const now = new Date(at(nowOffset));
        // The reference compares the ISO texts (one fixed-width format): announced at or before now, verified;
        // the second transition for resets whose effective text is later than their announcement and not after now.
        const expected = events.flatMap((event) => {
          if (!event.verified || event.announcedAt > now.toISOString()) return [];
          const effective =
            event.kind === 'reset' &&
            event.effectiveAt !== null &&
            event.effectiveAt > event.announcedAt &&
            event.effectiveAt <= now.toISOString();
          return effective ? [`${event.id}/announced`, `${event.id}/effective`] : [`${event.id}/announced`];
        });
        expect(pairs(events, now)).toEqual(expected);
      }),
    );
  });
});
