import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { IcsQuerySchema } from '../api/query.ts';
import { deriveBoard } from '../board.ts';
import type { Provider } from '../enums.ts';
import { compareNewestFirst } from '../ordering.ts';
import { CACHE_POLICIES } from '../routes/policy.ts';
import type { Event, ProviderStatus } from '../schemas.ts';
import { makeEvent, NOW, resetsWithGaps } from '../test-events.ts';
import { renderAnnouncementCalendar } from './announcement-calendar.ts';
import { renderWindowCalendar, windowCalendarFileName } from './window-calendar.ts';
import { TRICKY_SUMMARIES, trickyEvents } from './tricky-events.ts';

const BASE = 'https://board.example';
const parse = (text: string) => new ICAL.Component(ICAL.parse(text));
const utcOf = (component: ICAL.Component, name: string) =>
  (component.getFirstPropertyValue(name) as ICAL.Time).toJSDate().toISOString();

describe('renderWindowCalendar (spec 4.5)', () => {
  const query = IcsQuerySchema.parse({
    provider: 'provider_b',
    resetAt: '2026-11-21T18:30:00+08:00',
    weeklyAt: '2026-11-23T09:00:00-05:00',
    tz: 'Asia/Shanghai',
  });
  const text = renderWindowCalendar({ query, baseUrl: BASE, now: NOW });
  const calendar = parse(text);
  const [fiveHour, weekly] = calendar.getAllSubcomponents('vevent');

  it('has the calendar header the spec lists', () => {
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(calendar.getFirstPropertyValue('prodid')).toBe('-//Departures Board//Window Tracker//EN');
    expect(calendar.getFirstPropertyValue('calscale')).toBe('GREGORIAN');
    expect(calendar.getFirstPropertyValue('method')).toBe('PUBLISH');
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Departures Board: Provider B usage windows');
  });

  it('has one event per window, in UTC, converted from +08:00 and -05:00', () => {
    expect(calendar.getAllSubcomponents('vevent')).toHaveLength(2);
    expect(utcOf(fiveHour!, 'dtstart')).toBe('2026-11-21T10:30:00.000Z');
    expect(utcOf(weekly!, 'dtstart')).toBe('2026-11-23T14:00:00.000Z');
    expect(text).toContain('\r\nDTSTART:20261121T103000Z\r\n');
    expect(text).toContain('\r\nDTSTART:20261123T140000Z\r\n');
  });

  it('gives each event the spec’s UID, DTSTAMP, DURATION, SUMMARY, URL, DESCRIPTION and VALARM', () => {
    expect(fiveHour!.getFirstPropertyValue('uid')).toBe(
      `departures-board-provider_b-5h-${Date.parse('2026-11-21T10:30:00Z')}@board.example`,
    );
    expect(weekly!.getFirstPropertyValue('uid')).toBe(
      `departures-board-provider_b-weekly-${Date.parse('2026-11-23T14:00:00Z')}@board.example`,
    );
    expect(utcOf(fiveHour!, 'dtstamp')).toBe(NOW.toISOString());
    expect(String(fiveHour!.getFirstPropertyValue('duration'))).toBe('PT15M');
    expect(fiveHour!.getFirstPropertyValue('summary')).toBe('Provider B 5-hour window resets');
    expect(weekly!.getFirstPropertyValue('summary')).toBe('Provider B weekly window resets');
    expect(fiveHour!.getFirstPropertyValue('url')).toBe(`${BASE}/tracker`);
    expect(fiveHour!.getFirstPropertyValue('description')).toMatch(
      /not a vendor schedule[\s\S]*Time zone: Asia\/Shanghai\./,
    );
    const alarm = fiveHour!.getFirstSubcomponent('valarm')!;
    expect(alarm.getFirstPropertyValue('action')).toBe('DISPLAY');
    expect(String(alarm.getFirstPropertyValue('trigger'))).toBe('-PT5M');
    expect(alarm.getFirstPropertyValue('description')).toBe('Provider B 5-hour window resets in 5 minutes');
  });

  it('ends every line with CRLF and folds at 75 octets, in Chinese too', () => {
    const zh = renderWindowCalendar({ query: { ...query, locale: 'zh' }, baseUrl: BASE, now: NOW });
    expect(zh.endsWith('\r\n')).toBe(true);
    const lines = zh.slice(0, -2).split('\r\n');
    expect(lines.every((line) => !/[\r\n]/.test(line) && new TextEncoder().encode(line).length <= 75)).toBe(true);
    expect(lines.some((line) => line.startsWith(' '))).toBe(true);
    const event = parse(zh).getFirstSubcomponent('vevent')!;
    expect(event.getFirstPropertyValue('summary')).toBe('供应商 B 的 5 小时窗口重置');
    expect(event.getFirstPropertyValue('description')).toContain('时区：Asia/Shanghai。');
  });

  it('has only the window passed in, and no time zone line without tz', () => {
    const only = parse(
      renderWindowCalendar({
        query: IcsQuerySchema.parse({ provider: 'provider_a', weeklyAt: '2026-11-23T09:00:00Z' }),
        baseUrl: BASE,
        now: NOW,
      }),
    );
    const events = only.getAllSubcomponents('vevent');
    expect(events).toHaveLength(1);
    expect(events[0]!.getFirstPropertyValue('uid')).toContain('-weekly-');
    expect(events[0]!.getFirstPropertyValue('description')).not.toContain('Time zone');
    expect(windowCalendarFileName('provider_a')).toBe('departures-board-provider_a-windows.ics');
  });
});

describe('renderWindowCalendar: the weekly window repeats', () => {
  it('repeats the weekly window every week (RRULE:FREQ=WEEKLY), and not the 5-hour one', () => {
    const text = renderWindowCalendar({
      query: IcsQuerySchema.parse({
        provider: 'provider_a',
        resetAt: '2026-11-21T18:30:00+08:00',
        weeklyAt: '2026-11-23T09:00:00-05:00',
      }),
      baseUrl: BASE,
      now: NOW,
    });
    const [fiveHour, weekly] = parse(text).getAllSubcomponents('vevent');
    expect(text).toContain('\r\nRRULE:FREQ=WEEKLY\r\n');
    expect(new ICAL.Event(weekly!).isRecurring()).toBe(true);
    expect(new ICAL.Event(fiveHour!).isRecurring()).toBe(false);
    const iterator = new ICAL.Event(weekly!).iterator();
    const starts = Array.from({ length: 4 }, () => iterator.next()!.toJSDate().toISOString());
    expect(starts).toEqual([
      '2026-11-23T14:00:00.000Z',
      '2026-11-30T14:00:00.000Z',
      '2026-12-07T14:00:00.000Z',
      '2026-12-14T14:00:00.000Z',
    ]);
  });
});

describe('renderAnnouncementCalendar', () => {
  const events = [...resetsWithGaps([9, 11], 2), ...trickyEvents()].sort(compareNewestFirst);
  const board = deriveBoard(events, NOW);
  const calendarOf = (input: { events: readonly Event[]; provider?: Provider; now?: Date; rows?: ProviderStatus[] }) =>
    renderAnnouncementCalendar({
      events: input.events,
      rows: input.rows ?? board.providers,
      provider: input.provider,
      baseUrl: BASE,
      now: input.now ?? NOW,
      builtAt: NOW.toISOString(),
    });
  const estimatesOf = (calendar: ICAL.Component) =>
    calendar
      .getAllSubcomponents('vevent')
      .filter((event) => String(event.getFirstPropertyValue('uid')).includes('-estimate-'));

  it('holds every announcement with a stable UID, its effective time and the original post', () => {
    const pending = makeEvent({
      id: 'pending-1',
      announcedAt: '2026-06-14T08:00:00.000Z',
      effectiveAt: '2026-06-20T17:00:00.000Z',
    });
    const calendar = parse(calendarOf({ events: [pending, ...events] }));
    const byUid = new Map(
      calendar.getAllSubcomponents('vevent').map((event) => [event.getFirstPropertyValue('uid'), event]),
    );
    const entry = byUid.get('departures-board-event-pending-1@board.example')!;
    expect(utcOf(entry, 'dtstart')).toBe('2026-06-20T17:00:00.000Z');
    expect(entry.getFirstPropertyValue('summary')).toBe('Provider A · Reset · 14 Jun 2026');
    expect(entry.getFirstPropertyValue('description')).toContain(pending.sourceUrl);
    expect(entry.getFirstPropertyValue('url')).toBe(`${BASE}/provider_a#event-pending-1`);
    for (const event of events) expect(byUid.has(`departures-board-event-${event.id}@board.example`)).toBe(true);
  });

  it('keeps summaries with commas, semicolons, backslashes and line breaks to the letter', () => {
    const tricky = [makeEvent({ id: 'esc', summary: 'a, b; c \\ d\ne' }), ...trickyEvents()];
    const calendar = parse(calendarOf({ events: tricky }));
    const descriptions = calendar
      .getAllSubcomponents('vevent')
      .map((event) => String(event.getFirstPropertyValue('description')));
    expect(descriptions.some((text) => text.startsWith('a, b; c \\ d\ne\n\nOriginal post'))).toBe(true);
    expect(descriptions.some((text) => text.startsWith(TRICKY_SUMMARIES.lineBreaks.replace(/\r\n/g, '\n')))).toBe(true);
  });

  // Provider A's resets 9 and 11 days apart, the last 2 days before NOW: the median gap is 10 days, so its estimate
  // is 8 days after NOW, at the last reset's time of day (2026-06-23 12:00 UTC). No other provider has one.
  const cadence = resetsWithGaps([9, 11], 2);
  const cadenceAt = (iso: string) =>
    calendarOf({ events: cadence, rows: deriveBoard(cadence, new Date(iso)).providers, now: new Date(iso) });

  it('adds an estimate still ahead as an event that says it is a cadence estimate, not a schedule', () => {
    const estimates = estimatesOf(parse(cadenceAt(NOW.toISOString())));
    expect(estimates).toHaveLength(1);
    const [estimate] = estimates;
    expect(estimate!.getFirstPropertyValue('uid')).toBe('departures-board-estimate-provider_a@board.example');
    expect(utcOf(estimate!, 'dtstart')).toBe('2026-06-23T12:00:00.000Z');
    expect(String(estimate!.getFirstPropertyValue('duration'))).toBe('PT15M');
    expect(estimate!.getFirstPropertyValue('summary')).toBe(
      'Provider A: next reset? (cadence estimate, not a schedule)',
    );
    const description = String(estimate!.getFirstPropertyValue('description'));
    expect(description).toMatch(/^A cadence estimate, not a vendor schedule: the last reset \(2026-06-13 12:00 UTC\)/);
    expect(description).toContain('(10.0 days)');
    expect(description).toContain('It leaves this calendar when its time comes');
  });

  it('leaves an estimate out once its time has come, and never says “any time now”', () => {
    // The estimate is 2026-06-23 12:00 UTC (above): a minute before, it is there; at that minute and after, not.
    expect(estimatesOf(parse(cadenceAt('2026-06-23T11:59:00.000Z')))).toHaveLength(1);
    for (const iso of ['2026-06-23T12:00:00.000Z', '2026-06-23T12:10:00.000Z', '2026-07-20T00:00:00.000Z']) {
      const text = cadenceAt(iso);
      expect(estimatesOf(parse(text)), iso).toHaveLength(0);
      expect(parse(text).getAllSubcomponents('vevent'), iso).toHaveLength(cadence.length);
      expect(text.toLowerCase()).not.toContain('any time now');
    }
    expect(cadenceAt(NOW.toISOString()).toLowerCase()).not.toContain('any time now');
  });

  it('keeps an estimate no longer than it lasts: a cached copy has no estimate that ended before it is served', () => {
    // An estimate leaves the calendar when it starts, and lasts 15 minutes: the calendar's whole cache lifetime
    // (s-maxage and stale-while-revalidate) must fit in those 15 minutes.
    const seconds = (name: string) => Number(new RegExp(`${name}=(\\d+)`).exec(CACHE_POLICIES.calendar)?.[1] ?? 0);
    expect(CACHE_POLICIES.calendar).not.toMatch(/(^|[ ,])max-age=/);
    expect(seconds('s-maxage') + seconds('stale-while-revalidate')).toBeLessThanOrEqual(15 * 60);
  });

  it('filters by provider', () => {
    const calendar = parse(calendarOf({ events, provider: 'provider_b' }));
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Departures Board: Provider B');
    const uids = calendar.getAllSubcomponents('vevent').map((event) => String(event.getFirstPropertyValue('uid')));
    const expectedIds = events
      .filter((event) => event.provider === 'provider_b')
      .map((event) => `departures-board-event-${event.id}@board.example`);
    expect(uids).toEqual(expectedIds);
    const rows = deriveBoard(cadence, NOW).providers;
    expect(estimatesOf(parse(calendarOf({ events: cadence, rows, provider: 'provider_b' })))).toEqual([]);
    const onlyA = parse(calendarOf({ events: cadence, rows, provider: 'provider_a' }));
    expect(estimatesOf(onlyA).map((event) => event.getFirstPropertyValue('uid'))).toEqual([
      'departures-board-estimate-provider_a@board.example',
    ]);
  });

  it('is never empty: a selection with no events explains itself', () => {
    const empty = deriveBoard([], NOW);
    const text = calendarOf({ events: [], rows: empty.providers, provider: 'provider_c' });
    const calendar = parse(text);
    expect(calendar.getFirstPropertyValue('x-wr-caldesc')).toMatch(
      /official usage-limit reset announcements of Provider C/,
    );
    const [only] = calendar.getAllSubcomponents('vevent');
    expect(only!.getFirstPropertyValue('summary')).toBe('Departures Board: no announcements recorded yet');
  });
});

describe('long histories', () => {
  it('a calendar holds the newest 1,000 announcements', () => {
    const many = Array.from({ length: 1_200 }, (_, index) =>
      makeEvent({ id: `n${index}`, announcedAt: new Date(NOW.getTime() - (index + 1) * 3_600_000).toISOString() }),
    );
    const calendar = parse(
      renderAnnouncementCalendar({
        events: many,
        rows: deriveBoard(many, NOW).providers,
        provider: undefined,
        baseUrl: BASE,
        now: NOW,
        builtAt: NOW.toISOString(),
      }),
    );
    const uids = calendar
      .getAllSubcomponents('vevent')
      .map((event) => String(event.getFirstPropertyValue('uid')))
      .filter((uid) => uid.includes('-event-'));
    expect(uids).toHaveLength(1_000);
    expect(uids[0]).toBe('departures-board-event-n0@board.example');
    expect(uids).not.toContain('departures-board-event-n1000@board.example');
  });
});
