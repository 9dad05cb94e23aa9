import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { IcsQuerySchema } from '../api/query.ts';
import { deriveBoard } from '../board.ts';
import { compareNewestFirst } from '../ordering.ts';
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
    expect(event.getFirstPropertyValue('summary')).toBe('供应商 B 5 小时窗口重置');
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

describe('renderAnnouncementCalendar', () => {
  const events = [...resetsWithGaps([9, 11], 2), ...trickyEvents()].sort(compareNewestFirst);
  const board = deriveBoard(events, NOW);

  it('holds every announcement with a stable UID, its effective time and the original post', () => {
    const pending = makeEvent({
      id: 'pending-1',
      announcedAt: '2026-06-14T08:00:00.000Z',
      effectiveAt: '2026-06-20T17:00:00.000Z',
    });
    const calendar = parse(
      renderAnnouncementCalendar({ events: [pending, ...events], board, provider: undefined, baseUrl: BASE }),
    );
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
    const calendar = parse(renderAnnouncementCalendar({ events: tricky, board, provider: undefined, baseUrl: BASE }));
    const descriptions = calendar
      .getAllSubcomponents('vevent')
      .map((event) => String(event.getFirstPropertyValue('description')));
    expect(descriptions.some((text) => text.startsWith('a, b; c \\ d\ne\n\nOriginal post'))).toBe(true);
    expect(descriptions.some((text) => text.startsWith(TRICKY_SUMMARIES.lineBreaks.replace(/\r\n/g, '\n')))).toBe(true);
  });

  it('adds each provider’s estimate as an event labelled as one', () => {
    const calendar = parse(renderAnnouncementCalendar({ events, board, provider: undefined, baseUrl: BASE }));
    const estimates = calendar
      .getAllSubcomponents('vevent')
      .filter((event) => String(event.getFirstPropertyValue('uid')).includes('-estimate-'));
    const withEstimate = board.providers.filter((row) => row.nextEstimate !== null);
    expect(estimates).toHaveLength(withEstimate.length);
    expect(estimates.length).toBeGreaterThan(0);
    for (const [index, row] of withEstimate.entries()) {
      expect(utcOf(estimates[index]!, 'dtstart')).toBe(new Date(Date.parse(row.nextEstimate!)).toISOString());
      expect(estimates[index]!.getFirstPropertyValue('summary')).toMatch(/cadence estimate, not a schedule/);
    }
  });

  it('filters by provider', () => {
    const calendar = parse(renderAnnouncementCalendar({ events, board, provider: 'provider_b', baseUrl: BASE }));
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Departures Board: Provider B');
    const uids = calendar.getAllSubcomponents('vevent').map((event) => String(event.getFirstPropertyValue('uid')));
    const expectedIds = events
      .filter((event) => event.provider === 'provider_b')
      .map((event) => `departures-board-event-${event.id}@board.example`);
    expect(uids).toEqual([...expectedIds, 'departures-board-estimate-provider_b@board.example']);
  });

  it('is never empty: a selection with no events explains itself', () => {
    const empty = deriveBoard([], NOW);
    const text = renderAnnouncementCalendar({ events: [], board: empty, provider: 'provider_c', baseUrl: BASE });
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
      renderAnnouncementCalendar({ events: many, board: deriveBoard(many, NOW), provider: undefined, baseUrl: BASE }),
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
