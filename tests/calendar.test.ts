import ICAL from 'ical.js';
import { describe, expect, inject, it } from 'vitest';
import { loadContract } from './support/openapi-contract.ts';
import { publishedFromContent } from './support/published.ts';

const baseUrl = inject('baseUrl');
const get = (path: string) => fetch(`${baseUrl}${path}`);
const parse = (text: string) => new ICAL.Component(ICAL.parse(text));

describe('GET /api/ics', () => {
  it('builds the caller’s calendar with the spec’s headers, stored nowhere', async () => {
    const response = await get(
      '/api/ics?provider=provider_c&resetAt=2026-11-21T18:30:00%2B08:00&weeklyAt=2026-11-23T09:00:00-05:00&tz=Asia/Shanghai&locale=zh',
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-disposition')).toBe(
      'attachment; filename=departures-board-provider_c-windows.ics',
    );
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const text = await response.text();
    const events = parse(text).getAllSubcomponents('vevent');
    expect(
      events.map((event) => (event.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString()),
    ).toEqual(['2026-11-21T10:30:00.000Z', '2026-11-23T14:00:00.000Z']);
    expect(events[0]!.getFirstPropertyValue('summary')).toBe('供应商 C 的 5 小时窗口重置');
    expect(events[0]!.getFirstPropertyValue('url')).toBe(`${baseUrl}/tracker`);
    expect(events[0]!.getFirstPropertyValue('uid')).toBe(
      `departures-board-provider_c-5h-${Date.parse('2026-11-21T10:30:00Z')}@127.0.0.1`,
    );
  });

  it.each([
    ['no provider', 'resetAt=2026-11-21T18:30:00Z'],
    ['an unknown provider', 'provider=provider_q&resetAt=2026-11-21T18:30:00Z'],
    ['no window at all', 'provider=provider_a'],
    ['a time without an offset', 'provider=provider_a&resetAt=2026-11-21T18:30:00'],
    ['a date only', 'provider=provider_a&weeklyAt=2026-11-21'],
    ['an impossible date', 'provider=provider_a&resetAt=2026-02-30T18:30:00Z'],
    ['an impossible hour', 'provider=provider_a&resetAt=2026-11-21T25:30:00Z'],
    ['garbage', 'provider=provider_a&resetAt=soon'],
    ['a time in year 0 in UTC', 'provider=provider_a&resetAt=0000-01-01T00:00:00%2B08:00'],
    ['a time in year 10000 in UTC', 'provider=provider_a&weeklyAt=9999-12-31T23:59:59-05:00'],
    [
      'a tz that injects a line break and a property',
      'provider=provider_a&resetAt=2026-11-21T18:30:00Z&tz=Europe/Berlin%0D%0ADTSTART:19700101T000000Z',
    ],
    ['a tz with a semicolon', 'provider=provider_a&resetAt=2026-11-21T18:30:00Z&tz=UTC;X-EVIL=1'],
    ['a tz over 64 characters', `provider=provider_a&resetAt=2026-11-21T18:30:00Z&tz=${'A'.repeat(65)}`],
    ['an unknown locale', 'provider=provider_a&resetAt=2026-11-21T18:30:00Z&locale=fr'],
    ['a repeated window', 'provider=provider_a&resetAt=2026-11-21T18:30:00Z&resetAt=2026-11-22T18:30:00Z'],
  ])('refuses %s with 400 invalid_query', async (_, query) => {
    const contract = await loadContract(baseUrl);
    const response = await get(`/api/ics?${query}`);
    expect(response.status).toBe(400);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const body = (await response.json()) as { error: string; issues: unknown[] };
    contract.expectBodyMatches('/api/ics', 400, body);
    expect(body.error).toBe('invalid_query');
    expect(body.issues.length).toBeGreaterThan(0);
  });
});

describe('GET /calendar.ics', () => {
  const estimatesOf = (calendar: ICAL.Component) =>
    calendar
      .getAllSubcomponents('vevent')
      .filter((event) => String(event.getFirstPropertyValue('uid')).includes('-estimate-'));

  it('is the build’s announcements with the estimates still ahead, written at the edge in workerd', async () => {
    const dataset = await publishedFromContent();
    const response = await get('/calendar.ics');
    const servedBy = Date.now();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, s-maxage=300, stale-while-revalidate=600');
    const calendar = parse(await response.text());
    const uids = calendar.getAllSubcomponents('vevent').map((event) => String(event.getFirstPropertyValue('uid')));
    for (const event of dataset.events) expect(uids).toContain(`departures-board-event-${event.id}@127.0.0.1`);
    // The served tree (tests/support/served-events.ts, made from the run's clock): Provider A waiting and Provider C
    // with a tease have their estimates ahead; Provider B is overdue, its estimate weeks past, so it has none.
    const estimates = estimatesOf(calendar);
    expect(estimates.map((event) => String(event.getFirstPropertyValue('uid'))).sort()).toEqual([
      'departures-board-estimate-provider_a@127.0.0.1',
      'departures-board-estimate-provider_c@127.0.0.1',
    ]);
    for (const estimate of estimates) {
      expect(new ICAL.Event(estimate).endDate.toJSDate().getTime()).toBeGreaterThan(servedBy);
      expect(String(estimate.getFirstPropertyValue('summary'))).toMatch(/cadence estimate, not a schedule/);
    }
  });

  it('answers ?provider= and /calendar/<provider>.ics alike, and refuses a bad one', async () => {
    for (const path of ['/calendar.ics?provider=provider_b', '/calendar/provider_b.ics']) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      const calendar = parse(await response.text());
      expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Departures Board: Provider B');
      const events = calendar.getAllSubcomponents('vevent');
      expect(events.length).toBeGreaterThan(0);
      expect(events.every((event) => String(event.getFirstPropertyValue('url')).includes('/provider_b'))).toBe(true);
      expect(estimatesOf(calendar), path).toEqual([]);
    }
    expect((await get('/calendar.ics?provider=everyone')).status).toBe(400);
  });
});
