import type { Event } from './schemas.ts';

/** The few facts about time and order that every board rule and every output shares. */

export const MS_PER_HOUR = 3_600_000;
export const MS_PER_DAY = 86_400_000;

export const announcedMs = (event: Event): number => Date.parse(event.announcedAt);

/** When an event takes effect: the named later time if the post gave one, else when it was announced. */
export const effectiveMs = (event: Event): number => Date.parse(event.effectiveAt ?? event.announcedAt);

export const toIsoTimestamp = (ms: number): string => new Date(Math.round(ms)).toISOString();

// Ids are unique and timestamps share one fixed-width format, so plain string comparison gives a total,
// locale-independent order: the result never depends on the order the files were read in.
const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The one order of every list the service publishes: newest `announcedAt` first, then by id. */
export const compareNewestFirst = (a: Event, b: Event): number =>
  compareStrings(b.announcedAt, a.announcedAt) || compareStrings(a.id, b.id);

/** Oldest effective time first (cadence is measured between effective times). */
export const compareByEffectiveTime = (a: Event, b: Event): number =>
  effectiveMs(a) - effectiveMs(b) || compareStrings(a.announcedAt, b.announcedAt) || compareStrings(a.id, b.id);

/** Only hand-checked events reach any output; `verified: false` files are drafts. */
export const isPublished = (event: Event): boolean => event.verified;

/** Events published and already announced at `now`: the board as anyone could have seen it then. */
export const eventsKnownAt = (events: readonly Event[], now: Date): Event[] =>
  events.filter((event) => isPublished(event) && announcedMs(event) <= now.getTime());
