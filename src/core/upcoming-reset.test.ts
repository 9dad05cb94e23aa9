import { describe, expect, it } from 'vitest';
import { deriveBoard } from './board.ts';
import { summarizeProvider } from './history.ts';
import { MS_PER_HOUR } from './ordering.ts';
import type { Event } from './schemas.ts';
import { daysBefore, makeEvent, NOW, resetDaysAgo } from './test-events.ts';
import { unconfirmedTease, upcomingReset } from './upcoming-reset.ts';

/** The summary the edge reads, made at NOW from `events` (all provider_a). */
const at = (events: Event[], now: Date = NOW) => summarizeProvider('provider_a', events, now);
const hoursBefore = (hours: number) => new Date(NOW.getTime() - hours * MS_PER_HOUR).toISOString();
const hoursAfter = (hours: number) => new Date(NOW.getTime() + hours * MS_PER_HOUR).toISOString();
const tease = (announcedDaysAgo: number, effectiveAt: string | null, id = 'tease') =>
  makeEvent({ id, kind: 'tease', announcedAt: daysBefore(announcedDaysAgo), effectiveAt });
const status = (events: Event[]) => deriveBoard(events, NOW).providers.find((row) => row.provider === 'provider_a')!;

describe('unconfirmedTease: a live tease whose time has passed without a reset', () => {
  const history = [resetDaysAgo(20, { id: 'r1' }), resetDaysAgo(10, { id: 'r2' })];

  it('names the passed time and the tease, while the status word is still "tease"', () => {
    const passed = tease(2, hoursBefore(20));
    const events = [...history, passed];
    expect(status(events).status).toBe('tease');
    expect(unconfirmedTease(at(events), NOW)).toEqual({ at: hoursBefore(20), event: passed });
    // Nothing ahead to announce: the next-reset cell falls back to the estimate.
    expect(upcomingReset(at(events), NOW)).toBeNull();
  });

  it('a tease that named no time is unconfirmed too, with no time', () => {
    const untimed = tease(1, null);
    expect(status([...history, untimed]).status).toBe('tease');
    expect(unconfirmedTease(at([...history, untimed]), NOW)).toEqual({ at: null, event: untimed });
  });

  it('is nothing while the teased time is still ahead: that is the upcoming reset', () => {
    const ahead = tease(1, hoursAfter(5));
    expect(unconfirmedTease(at([...history, ahead]), NOW)).toBeNull();
    expect(upcomingReset(at([...history, ahead]), NOW)).toEqual({ basis: 'teased', at: hoursAfter(5), event: ahead });
  });

  it('is nothing once a reset followed the tease, announced after it', () => {
    const passed = tease(3, daysBefore(2));
    const followed = resetDaysAgo(1, { id: 'r3' });
    expect(unconfirmedTease(at([...history, passed, followed]), NOW)).toBeNull();
  });

  it('is nothing when a reset announced before the tease took effect after it was posted', () => {
    const scheduled = resetDaysAgo(4, { id: 'r3', effectiveAt: daysBefore(2) });
    const passed = tease(3, daysBefore(2.5));
    expect(unconfirmedTease(at([...history, scheduled, passed]), NOW)).toBeNull();
  });

  it('is nothing while a reset is announced for later: the row leads with that announcement', () => {
    const passed = tease(2, hoursBefore(20));
    const pending = resetDaysAgo(0.5, { id: 'r3', effectiveAt: hoursAfter(6) });
    const summary = at([...history, passed, pending]);
    expect(unconfirmedTease(summary, NOW)).toBeNull();
    expect(upcomingReset(summary, NOW)?.basis).toBe('announced');
  });

  it('stays while it is the latest signal, whatever its age, once the status word no longer says "tease"', () => {
    const stale = tease(30, daysBefore(29));
    const events = [resetDaysAgo(50, { id: 'r0' }), resetDaysAgo(40, { id: 'r1' }), stale];
    expect(status(events).status).not.toBe('tease');
    expect(unconfirmedTease(at(events), NOW)).toEqual({ at: daysBefore(29), event: stale });
  });

  it('is nothing once an old tease is no longer the latest signal (a later promotion came)', () => {
    const stale = tease(8, daysBefore(6));
    const promotion = makeEvent({ id: 'promo', kind: 'promo', announcedAt: daysBefore(5) });
    expect(unconfirmedTease(at([...history, stale, promotion]), NOW)).toBeNull();
  });

  it('stays while the tease is live, even under a later signal of another kind', () => {
    const passed = tease(3, daysBefore(2));
    const promotion = makeEvent({ id: 'promo', kind: 'promo', announcedAt: daysBefore(1) });
    expect(unconfirmedTease(at([...history, passed, promotion]), NOW)).toEqual({ at: daysBefore(2), event: passed });
  });

  it('holds later than the summary was made: a tease still ahead at the build passes by the request', () => {
    const passed = tease(1, hoursAfter(2));
    const summary = at([...history, passed]);
    expect(unconfirmedTease(summary, NOW)).toBeNull();
    const later = new Date(NOW.getTime() + 3 * MS_PER_HOUR);
    expect(unconfirmedTease(summary, later)).toEqual({ at: hoursAfter(2), event: passed });
  });
});
