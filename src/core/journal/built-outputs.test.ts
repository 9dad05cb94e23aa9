import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { buildEdgeDataset, publishEvents } from '../dataset.ts';
import { CALENDAR_EVENT_LIMIT, renderAnnouncementEvents } from '../render/announcement-calendar.ts';
import type { Event } from '../schemas.ts';
import { makeEvent, NOW } from '../test-events.ts';
import { PROVIDERS, type Provider } from '../vocabulary.ts';
import { announcementsWithJournal, journalBuiltAt } from './built-outputs.ts';
import { datasetWithJournal } from './merge.ts';
import { RECENT_EVENTS_PER_PROVIDER } from '../dataset.ts';

/**
 * The calendars' announcements with the journal's events, against what the build's own renderer writes from the
 * union of the events at the time a build holding them would carry: byte for byte, including a selection of
 * 1,000 cut from a history whose providers each have more than the data set's 500 newest.
 */

const BASE_URL = 'https://board.example';
const BUILT_AT = new Date(NOW.getTime() - 6 * 3_600_000);
const CONFIRMED_AT = new Date(NOW.getTime() - 3_600_000).toISOString();
const HOUR = 3_600_000;

/** `count` events per provider, one an hour apart per provider, interleaved, the newest `newestHoursAgo` before the build. */
const history = (count: number, newestHoursAgo = 1): Event[] =>
  PROVIDERS.flatMap((provider, index) =>
    Array.from({ length: count }, (_, n) =>
      makeEvent({
        id: `${provider}-${n}`,
        provider,
        kind: n % 3 === 0 ? 'reset' : 'tease',
        announcedAt: new Date(BUILT_AT.getTime() - (newestHoursAgo + n) * HOUR - index * 60_000).toISOString(),
      }),
    ),
  );

/** What the edge writes for `provider`'s selection, with `journal` confirmed at CONFIRMED_AT. */
function edgeAnnouncements(events: readonly Event[], journal: readonly Event[], provider: Provider | undefined) {
  const published = publishEvents(events, BUILT_AT);
  const built = renderAnnouncementEvents({
    events: published.events,
    provider,
    baseUrl: BASE_URL,
    builtAt: published.builtAt,
  });
  const dataset = datasetWithJournal(buildEdgeDataset(events, BUILT_AT), journal, RECENT_EVENTS_PER_PROVIDER);
  const asOf = journalBuiltAt(
    dataset.builtAt,
    journal.map((event) => ({ event, confirmedAt: CONFIRMED_AT })),
    provider,
  );
  if (asOf === null) return built;
  return announcementsWithJournal({
    built,
    builtAt: dataset.builtAt,
    asOf,
    dataset,
    journal,
    provider,
    baseUrl: BASE_URL,
  });
}

/** What a build at CONFIRMED_AT holding the journal's events writes. */
const rebuilt = (events: readonly Event[], provider: Provider | undefined) => {
  const published = publishEvents(events, new Date(CONFIRMED_AT));
  return renderAnnouncementEvents({
    events: published.events,
    provider,
    baseUrl: BASE_URL,
    builtAt: published.builtAt,
  });
};

const uids = (text: string) =>
  ICAL.Component.fromString(`BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:test\r\n${text}END:VCALENDAR\r\n`)
    .getAllSubcomponents('vevent')
    .map((event) => String(event.getFirstPropertyValue('uid')));

describe('journalBuiltAt', () => {
  const entry = (provider: Provider, confirmedAt: string) => ({ event: makeEvent({ provider }), confirmedAt });
  it('is the newest confirm of the selection, never before the build, and null without one', () => {
    const builtAt = BUILT_AT.toISOString();
    const journal = [entry('provider_a', CONFIRMED_AT), entry('provider_b', '2026-01-01T00:00:00.000Z')];
    expect(journalBuiltAt(builtAt, journal, undefined)).toBe(CONFIRMED_AT);
    expect(journalBuiltAt(builtAt, journal, 'provider_a')).toBe(CONFIRMED_AT);
    expect(journalBuiltAt(builtAt, journal, 'provider_b')).toBe(builtAt);
    expect(journalBuiltAt(builtAt, journal, 'provider_c')).toBeNull();
    expect(journalBuiltAt(builtAt, [], undefined)).toBeNull();
  });
});

describe('announcementsWithJournal', () => {
  it('writes a small history with a new event as a build holding it does', () => {
    const events = history(4);
    const confirmed = makeEvent({
      id: 'confirmed',
      provider: 'provider_b',
      announcedAt: new Date(NOW.getTime() - 2 * HOUR).toISOString(),
    });
    for (const provider of [undefined, 'provider_b'] as const) {
      const written = edgeAnnouncements(events, [confirmed], provider);
      expect(written).toBe(rebuilt([...events, confirmed], provider));
      expect(uids(written)[0]).toContain('-event-confirmed@');
    }
  });

  it('places an older confirmed event among the built ones, in the build’s order', () => {
    const events = history(6);
    const older = makeEvent({
      id: 'older',
      provider: 'provider_c',
      kind: 'tease',
      announcedAt: new Date(BUILT_AT.getTime() - 3.5 * HOUR).toISOString(),
    });
    for (const provider of [undefined, 'provider_c'] as const)
      expect(edgeAnnouncements(events, [older], provider)).toBe(rebuilt([...events, older], provider));
  });

  it('cuts at 1,000 as the build does, where each provider has more events than the data set lists', () => {
    const events = history(600);
    const confirmed = makeEvent({
      id: 'confirmed',
      provider: 'provider_a',
      announcedAt: new Date(NOW.getTime() - 2 * HOUR).toISOString(),
    });
    // Among the 500 newest of its provider, behind hundreds of the others'.
    const middle = makeEvent({
      id: 'middle',
      provider: 'provider_c',
      kind: 'tease',
      announcedAt: new Date(BUILT_AT.getTime() - 300.5 * HOUR).toISOString(),
    });
    for (const provider of [undefined, 'provider_a', 'provider_c'] as const) {
      const written = edgeAnnouncements(events, [confirmed, middle], provider);
      expect(written).toBe(rebuilt([...events, confirmed, middle], provider));
      expect(uids(written)).toHaveLength(provider === undefined ? CALENDAR_EVENT_LIMIT : 601);
    }
  });

  it('orders a confirmed event among built ones the data set does not list (one provider with 900 events)', () => {
    const busy = Array.from({ length: 900 }, (_, n) =>
      makeEvent({
        id: `busy-${n}`,
        provider: 'provider_a',
        kind: 'tease',
        announcedAt: new Date(BUILT_AT.getTime() - (1 + n) * HOUR).toISOString(),
      }),
    );
    const quiet = Array.from({ length: 100 }, (_, n) =>
      makeEvent({
        id: `quiet-${n}`,
        provider: 'provider_c',
        announcedAt: new Date(BUILT_AT.getTime() - (7 + 10 * n) * HOUR).toISOString(),
      }),
    );
    // Older than provider_a's 500 newest, the data set's horizon for it: placed among its unlisted events.
    const beyond = makeEvent({
      id: 'beyond',
      provider: 'provider_c',
      kind: 'tease',
      announcedAt: new Date(BUILT_AT.getTime() - 640.5 * HOUR).toISOString(),
    });
    const written = edgeAnnouncements([...busy, ...quiet], [beyond], undefined);
    expect(written).toBe(rebuilt([...busy, ...quiet, beyond], undefined));
    expect(uids(written)).toContain(`departures-board-event-beyond@board.example`);
  });

  it('replaces "no announcements recorded yet" with the first confirmed event', () => {
    const confirmed = makeEvent({
      id: 'first',
      provider: 'provider_c',
      announcedAt: new Date(NOW.getTime() - 2 * HOUR).toISOString(),
    });
    const written = edgeAnnouncements(
      history(2).filter((event) => event.provider !== 'provider_c'),
      [confirmed],
      'provider_c',
    );
    expect(uids(written)).toEqual([expect.stringContaining('-event-first@')]);
    expect(written).toBe(rebuilt([confirmed], 'provider_c'));
  });

  it('leaves a selection without a journal event to the build, and an event the build holds is not added twice', () => {
    const events = history(3);
    const confirmed = makeEvent({
      id: 'confirmed',
      provider: 'provider_a',
      announcedAt: new Date(NOW.getTime() - 2 * HOUR).toISOString(),
    });
    const published = publishEvents(events, BUILT_AT);
    const built = (provider: Provider) =>
      renderAnnouncementEvents({ events: published.events, provider, baseUrl: BASE_URL, builtAt: published.builtAt });
    expect(edgeAnnouncements(events, [confirmed], 'provider_b')).toBe(built('provider_b'));
    const held = events[0]!;
    const written = edgeAnnouncements(events, [held], held.provider);
    expect(uids(written)).toEqual(uids(built(held.provider)));
  });
});
