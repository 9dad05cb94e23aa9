import ICAL from 'ical.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { fixtureFiles } from '../../scripts/lib/built-files.ts';
import { edgeApp } from '../../scripts/lib/edge-app.ts';
import type { Provider } from '../../src/core/enums.ts';
import type { Event } from '../../src/core/schemas.ts';
import { makeEvent } from '../../src/core/test-events.ts';
import { forgetLoadedData } from '../../src/server/data-source.ts';

/**
 * The calendars through the worker's own route function, over the files a build of a fixture would hold. The
 * subscribable calendar's fixture is made from the run's clock (the core project also runs it 150 days behind and
 * ahead): a build three days old, in which Provider A's estimate lies ahead, Provider B's weeks in the past, and
 * Provider C's was ahead at the build and has passed since. Expected times are written from the fixture's gaps,
 * by hand; ical.js reads every calendar.
 */

const MINUTE = 60_000;
const DAY = 86_400_000;
const HOST = 'localhost';

const parse = (text: string) => ICAL.Component.fromString(text);
const uidOf = (event: ICAL.Component) => String(event.getFirstPropertyValue('uid'));
const endOf = (event: ICAL.Component) => new ICAL.Event(event).endDate.toJSDate().getTime();
const startOf = (event: ICAL.Component) => new ICAL.Event(event).startDate.toJSDate().getTime();

/** `count` resets of `provider`, `gapDays` apart, the last at `lastMs`, oldest first. */
const resets = (provider: Provider, lastMs: number, gapDays: number, count = 4): Event[] =>
  Array.from({ length: count }, (_, index) =>
    makeEvent({
      id: `${provider}-${index}`,
      provider,
      announcedAt: new Date(lastMs - (count - 1 - index) * gapDays * DAY).toISOString(),
    }),
  );

/** The fixture at the run's clock, to the minute (iCalendar writes whole seconds). */
function fixture() {
  const now = Math.floor(Date.now() / MINUTE) * MINUTE;
  const builtAt = new Date(now - 3 * DAY);
  const lastA = now - 4 * DAY;
  const lastB = now - 40 * DAY;
  const lastC = now - 6 * DAY;
  const events = [
    // Every 8 days: the next is 4 days after now.
    ...resets('provider_a', lastA, 8),
    // Every 10 days, the last 40 days ago: overdue, its estimate 30 days before now.
    ...resets('provider_b', lastB, 10),
    // Every 5 days, the last 6 days ago: its estimate was 2 days ahead at the build and is a day past now.
    ...resets('provider_c', lastC, 5),
  ];
  return {
    app: edgeApp(fixtureFiles(events, builtAt)),
    events,
    estimateA: lastA + 8 * DAY,
    estimateB: lastB + 10 * DAY,
    estimateC: lastC + 5 * DAY,
  };
}

/** The response at the real clock, with the moments just before and after it was made. */
async function served(app: ReturnType<typeof fixture>['app'], path: string) {
  const before = Date.now();
  const response = (await app.request(path))!;
  const text = await response.text();
  return { response, text, before, after: Date.now() };
}

/** Seconds a shared cache may serve a copy: s-maxage and stale-while-revalidate of its Cache-Control. */
const cacheLifetimeMs = (cacheControl: string | null) =>
  ['s-maxage', 'stale-while-revalidate', 'max-age']
    .map((name) => Number(new RegExp(`(?:^|[ ,])${name}=(\\d+)`).exec(cacheControl ?? '')?.[1] ?? 0))
    .reduce((sum, seconds) => sum + seconds * 1000, 0);

beforeEach(() => forgetLoadedData());

describe('GET /calendar.ics at the edge', () => {
  it('holds every announcement, and no estimate event that ends before it is served, even from a cache', async () => {
    const { app, events, estimateA } = fixture();
    const { response, text, after } = await served(app, '/calendar.ics');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const vevents = parse(text).getAllSubcomponents('vevent');
    const announcementUids = new Set(events.map((event) => `departures-board-event-${event.id}@${HOST}`));
    expect(vevents.filter((event) => announcementUids.has(uidOf(event)))).toHaveLength(events.length);
    const others = vevents.filter((event) => !announcementUids.has(uidOf(event)));
    // Only Provider A's estimate is still ahead: B's is weeks past, C's passed after the build.
    expect(others.map(uidOf)).toEqual([`departures-board-estimate-provider_a@${HOST}`]);
    expect(startOf(others[0]!)).toBe(estimateA);
    const lifetime = cacheLifetimeMs(response.headers.get('cache-control'));
    for (const event of others) {
      expect(endOf(event)).toBeGreaterThan(after);
      // A copy a shared cache serves until the end of its lifetime still has no estimate that ended.
      expect(endOf(event)).toBeGreaterThanOrEqual(after + lifetime);
    }
  });

  it('says of each estimate that it is a cadence estimate, not a vendor schedule, and never “any time now”', async () => {
    const { app } = fixture();
    const { text } = await served(app, '/calendar.ics');
    const estimates = parse(text)
      .getAllSubcomponents('vevent')
      .filter((event) => uidOf(event).includes('-estimate-'));
    expect(estimates.length).toBeGreaterThan(0);
    for (const estimate of estimates) {
      expect(String(estimate.getFirstPropertyValue('summary'))).toMatch(/cadence estimate, not a schedule/);
      expect(String(estimate.getFirstPropertyValue('description'))).toMatch(
        /^A cadence estimate, not a vendor schedule/,
      );
      expect(String(estimate.getFirstPropertyValue('categories'))).toBe('estimate');
    }
    expect(text.toLowerCase()).not.toContain('any time now');
  });

  it.each([
    ['/calendar.ics?provider=provider_b', 'provider_b'],
    ['/calendar/provider_b.ics', 'provider_b'],
    ['/calendar.ics?provider=provider_c', 'provider_c'],
    ['/calendar/provider_c.ics', 'provider_c'],
  ] as const)('%s: a passed estimate is left out, the announcements stay', async (path, provider) => {
    const { app, events } = fixture();
    const { response, text } = await served(app, path);
    expect(response.status).toBe(200);
    const uids = parse(text).getAllSubcomponents('vevent').map(uidOf);
    expect(uids.sort()).toEqual(
      events
        .filter((event) => event.provider === provider)
        .map((event) => `departures-board-event-${event.id}@${HOST}`)
        .sort(),
    );
  });

  it.each(['/calendar.ics?provider=provider_a', '/calendar/provider_a.ics'])(
    '%s: the estimate still ahead is there, at the last reset plus the median gap',
    async (path) => {
      const { app, estimateA } = fixture();
      const { text } = await served(app, path);
      const calendar = parse(text);
      expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Departures Board: Provider A');
      const estimate = calendar
        .getAllSubcomponents('vevent')
        .find((event) => uidOf(event) === `departures-board-estimate-provider_a@${HOST}`);
      expect(estimate).toBeDefined();
      expect(startOf(estimate!)).toBe(estimateA);
    },
  );

  it('drops an estimate the moment its time comes, and its ETag changes with it', async () => {
    const { app, estimateA } = fixture();
    const at = async (ms: number) => {
      const response = (await app.request('/calendar/provider_a.ics', undefined, new Date(ms)))!;
      const estimates = parse(await response.text())
        .getAllSubcomponents('vevent')
        .filter((event) => uidOf(event).includes('-estimate-'));
      return { estimates: estimates.length, etag: response.headers.get('etag') };
    };
    const [hourBefore, minuteBefore, onTime, minuteAfter] = await Promise.all([
      at(estimateA - 60 * MINUTE),
      at(estimateA - MINUTE),
      at(estimateA),
      at(estimateA + MINUTE),
    ]);
    expect([hourBefore, minuteBefore, onTime, minuteAfter].map((answer) => answer.estimates)).toEqual([1, 1, 0, 0]);
    // Nothing changed in the hour before: a poller's copy stays valid (304); then it changed.
    expect(minuteBefore.etag).toBe(hourBefore.etag);
    expect(onTime.etag).toBe(minuteAfter.etag);
    expect(onTime.etag).not.toBe(minuteBefore.etag);
  });

  it('answers 304 to its own ETag, and a Range is answered with the whole calendar', async () => {
    const { app } = fixture();
    const first = await served(app, '/calendar.ics');
    const etag = first.response.headers.get('etag')!;
    const again = (await app.request('/calendar.ics', { headers: { 'If-None-Match': etag } }))!;
    expect(again.status).toBe(304);
    const ranged = (await app.request('/calendar.ics', { headers: { Range: 'bytes=0-9' } }))!;
    expect(ranged.status).toBe(200);
    expect(await ranged.text()).toBe(first.text);
  });

  it('refuses an unknown provider: 400 on the query, 404 on the path', async () => {
    const { app } = fixture();
    expect((await app.request('/calendar.ics?provider=everyone'))!.status).toBe(400);
    const missing = (await app.request('/calendar/provider_q.ics'))!;
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: 'invalid_provider' });
  });
});

describe('GET /api/ics', () => {
  const { app } = fixture();

  it('repeats the weekly window every week: ical.js expands it into weekly occurrences', async () => {
    const response = (await app.request(
      '/api/ics?provider=provider_b&resetAt=2026-11-21T18:30:00%2B08:00&weeklyAt=2026-11-23T09:00:00-05:00',
    ))!;
    expect(response.status).toBe(200);
    const vevents = parse(await response.text()).getAllSubcomponents('vevent');
    expect(vevents).toHaveLength(2);
    const weekly = new ICAL.Event(vevents.find((event) => uidOf(event).includes('-weekly-'))!);
    const fiveHour = new ICAL.Event(vevents.find((event) => uidOf(event).includes('-5h-'))!);
    expect(String(weekly.component.getFirstPropertyValue('rrule'))).toBe('FREQ=WEEKLY');
    expect(fiveHour.isRecurring()).toBe(false);
    const iterator = weekly.iterator();
    const starts = Array.from({ length: 5 }, () => iterator.next()!.toJSDate().toISOString());
    expect(starts).toEqual([
      '2026-11-23T14:00:00.000Z',
      '2026-11-30T14:00:00.000Z',
      '2026-12-07T14:00:00.000Z',
      '2026-12-14T14:00:00.000Z',
      '2026-12-21T14:00:00.000Z',
    ]);
    // Each occurrence keeps its reminder.
    expect(String(weekly.component.getFirstSubcomponent('valarm')!.getFirstPropertyValue('trigger'))).toBe('-PT5M');
  });

  it('a raw + in resetAt (a space once decoded) is one issue, which says to write it %2B', async () => {
    const response = (await app.request('/api/ics?provider=provider_a&resetAt=2026-12-01T10:00:00+01:00'))!;
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; issues: { path: string[]; message: string }[] };
    expect(body.error).toBe('invalid_query');
    expect(body.issues).toHaveLength(1);
    expect(body.issues[0]!.path).toEqual(['resetAt']);
    expect(body.issues[0]!.message).toContain('%2B');
    expect(body.issues[0]!.message).not.toMatch(/0001|9999/);
    // Its example, pasted into the URL as it stands, is accepted.
    const example = /\d{4}-\d{2}-\d{2}T[0-9:.]+%2B\d{2}:\d{2}/.exec(body.issues[0]!.message)?.[0];
    expect(example).toBeDefined();
    expect((await app.request(`/api/ics?provider=provider_a&resetAt=${example}`))!.status).toBe(200);
  });

  it('the same for weeklyAt, with a fraction of a second', async () => {
    const response = (await app.request('/api/ics?provider=provider_a&weeklyAt=2026-12-01T10:00:00.250+05:30'))!;
    const body = (await response.json()) as { issues: { path: string[]; message: string }[] };
    expect(body.issues.map((issue) => issue.path)).toEqual([['weeklyAt']]);
    expect(body.issues[0]!.message).toContain('%2B');
  });

  it.each([
    'provider=provider_a&resetAt=2026-12-01T10:00:00+01:00',
    'provider=provider_a&resetAt=soon',
    'provider=provider_a&resetAt=2026-11-21T18:30:00',
    'provider=provider_a&weeklyAt=2026-02-30T18:30:00Z',
    'provider=provider_a&resetAt=0000-01-01T00:00:00%2B08:00',
  ])('?%s: every example a message gives can be pasted into a URL as it is', async (query) => {
    const response = (await app.request(`/api/ics?${query}`))!;
    expect(response.status).toBe(400);
    const { issues } = (await response.json()) as { issues: { message: string }[] };
    for (const { message } of issues) {
      expect(message).not.toContain('+');
      for (const example of message.match(/\d{4}-\d{2}-\d{2}T[0-9:.]+(?:Z|%2B\d{2}:\d{2}|-\d{2}:\d{2})/g) ?? []) {
        const pasted = (await app.request(`/api/ics?provider=provider_a&resetAt=${example}`))!;
        expect(pasted.status, example).toBe(200);
      }
    }
  });
});
