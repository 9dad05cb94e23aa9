import fc from 'fast-check';
import { EVENT_KINDS, type Provider } from '../enums.ts';
import { MS_PER_DAY, MS_PER_HOUR } from '../ordering.ts';
import type { Event } from '../schemas.ts';
import { makeEvent } from '../test-events.ts';

/** Test support: random histories for the forecast's property tests. */

export const START = Date.parse('2025-01-01T00:00:00.000Z');
export const SPAN = 120 * MS_PER_DAY;
export const iso = (ms: number) => new Date(ms).toISOString();

const eventFields = fc.record({
  // Mostly one provider and mostly resets, so that 5 to 20+ gaps form often.
  provider: fc.constantFrom<Provider>('provider_a', 'provider_a', 'provider_a', 'provider_b', 'provider_c'),
  kind: fc.constantFrom(...EVENT_KINDS, 'reset', 'reset', 'reset', 'reset', 'tease'),
  // Whole hours on few days, so that equal times, gaps equal to t and gaps equal to t + h come up.
  announcedMs: fc.integer({ min: 0, max: SPAN / MS_PER_HOUR }).map((hours) => START + hours * MS_PER_HOUR),
  // Mostly none; sometimes later (pending resets, teases pointing ahead), now and then earlier (recorded late).
  delayHours: fc.option(fc.integer({ min: -48, max: 20 * 24 }), { freq: 3 }),
  verified: fc.constantFrom(true, true, true, false),
});

export const eventLists = fc.array(eventFields, { maxLength: 80, size: 'large' }).map((fieldsList) =>
  fieldsList.map(({ provider, kind, announcedMs, delayHours, verified }, index) =>
    makeEvent({
      id: `p${index}`,
      provider,
      kind,
      announcedAt: iso(announcedMs),
      effectiveAt: delayHours === null ? null : iso(announcedMs + delayHours * MS_PER_HOUR),
      verified,
    }),
  ),
);
export const nows = fc
  .integer({ min: START / MS_PER_HOUR, max: (START + SPAN + 30 * MS_PER_DAY) / MS_PER_HOUR })
  .map((hours) => new Date(hours * MS_PER_HOUR));

/** Resets of provider_a separated by gaps drawn (in days, to the minute) from `drawGapDays`; oldest first. */
export function resetsWithDrawnGaps(
  count: number,
  drawGapDays: () => number,
  startMs = Date.parse('2000-01-01T00:00:00.000Z'),
) {
  const events: Event[] = [];
  let at = startMs;
  for (let index = 0; index < count; index += 1) {
    events.push(makeEvent({ id: `r${index}`, kind: 'reset', announcedAt: iso(at), effectiveAt: null }));
    at += Math.round((drawGapDays() * MS_PER_DAY) / 60_000) * 60_000;
  }
  return { events, endMs: at };
}
