import { parseJsonFeed } from 'feedsmith';
import ICAL from 'ical.js';
import Papa from 'papaparse';
import Parser from 'rss-parser';
import { describe, expect, it } from 'vitest';
import { EventRecordSchema } from '../../src/core/provenance.ts';
import { JsonFeedSchema } from '../../src/core/render/feed-formats.ts';
import { TimelineResponseSchema, type Event } from '../../src/core/schemas.ts';
import { NOW } from '../../src/core/test-events.ts';
import { createContext } from '../../src/server/context.ts';
import { webSubChannel } from '../../src/server/delivery/channels/websub/index.ts';
import { withdrawLive } from '../../src/server/journal/store.ts';
import {
  bodiesOf,
  BUILT_AT,
  CONFIRMED,
  CONFIRMED_AT,
  draftAndConfirm,
  HISTORY,
  journalApp,
  ORIGIN,
} from '../../tests/support/journal-fixture.ts';
import { REAL_D1, stateDatabaseForFile } from '../../tests/support/state-d1.ts';
import { defaultTimelineCsv, defaultTimelineJson } from './timeline.ts';

/**
 * The outputs the build writes whole (the feeds, the calendars' announcements, the timeline's default) and
 * /api/events/<id>, in-process over a real D1 whose journal holds a confirmed event: each selection that holds it
 * answers byte for byte what a build holding the event, made when it was confirmed, answers (the reference: the
 * built files of the history with the event, by the build's own functions, and an empty journal); the others and a
 * withdrawn event answer what the build alone does. Each answer is read as its readers read it.
 */

/** The selections that hold the confirmed event. */
const HOLDING = [
  '/feed.xml',
  '/feed.atom',
  '/feed.json',
  '/feed.xml?provider=provider_a',
  '/feed.atom?provider=provider_a',
  '/feed.json?provider=provider_a',
  '/calendar.ics',
  '/calendar/provider_a.ics',
  '/api/timeline',
  '/api/timeline.csv',
  '/api/timeline?format=csv',
];
/** Selections of other providers: the built files. */
const OTHERS = ['/feed.xml?provider=provider_b', '/feed.json?provider=provider_c', '/calendar/provider_b.ics'];
const PATHS = [...HOLDING, ...OTHERS];

const state = stateDatabaseForFile();

const appOf = (events: readonly Event[], builtAt: Date) => journalApp(state.db, events, builtAt);
const answers = async (events: readonly Event[], builtAt: Date) => bodiesOf(appOf(events, builtAt), PATHS);
const confirm = async (event: Event) => expect(await draftAndConfirm(state.db, event)).toBe('recorded');

const rss = new Parser<Record<string, unknown>, { guid?: string; id?: string; link?: string }>();
const pageUrl = `${ORIGIN}/provider_a#event-${CONFIRMED.id}`;

/** What each reader finds of the confirmed event in an answer: its page, UID or id. */
async function readerSees(path: string, body: string): Promise<boolean> {
  if (path.startsWith('/feed.json')) {
    JsonFeedSchema.parse(JSON.parse(body));
    return parseJsonFeed(body).items?.some((item) => item.id === pageUrl) ?? false;
  }
  if (path.startsWith('/feed.')) {
    const feed = await rss.parseString(body);
    return feed.items.some((item) => item.link === pageUrl);
  }
  if (path.endsWith('.ics'))
    return ICAL.Component.fromString(body)
      .getAllSubcomponents('vevent')
      .some((event) => String(event.getFirstPropertyValue('uid')).includes(`-event-${CONFIRMED.id}@`));
  if (path.includes('csv')) {
    const parsed = Papa.parse<Record<string, string>>(body, { header: true, skipEmptyLines: true });
    expect(parsed.errors, path).toEqual([]);
    return parsed.data.some((row) => Object.values(row).includes(CONFIRMED.id));
  }
  return TimelineResponseSchema.parse(JSON.parse(body)).events.some((event) => event.id === CONFIRMED.id);
}

describe('the journal in the built outputs', REAL_D1, () => {
  it('answers as a build that holds the confirmed event, made when it was confirmed; withdrawn, as before', async () => {
    const before = await answers(HISTORY, BUILT_AT);
    await confirm(CONFIRMED);
    const withJournal = await answers(HISTORY, BUILT_AT);
    await state.empty();
    const rebuilt = await answers([...HISTORY, CONFIRMED], CONFIRMED_AT);

    for (const path of HOLDING) {
      expect(withJournal[path], path).toBe(rebuilt[path]);
      expect(withJournal[path], path).not.toBe(before[path]);
      expect(await readerSees(path, withJournal[path]!), path).toBe(true);
      expect(await readerSees(path, before[path]!), path).toBe(false);
    }
    for (const path of OTHERS) expect(withJournal[path], path).toBe(before[path]);
    // The time a build made at the confirm carries.
    expect(withJournal['/feed.xml']).toContain(`<lastBuildDate>${CONFIRMED_AT.toUTCString()}</lastBuildDate>`);
    expect(withJournal['/feed.atom']).toContain(`<updated>${CONFIRMED_AT.toISOString()}</updated>`);

    await confirm(CONFIRMED);
    expect(await withdrawLive(state.db, CONFIRMED.id, NOW)).toBe(true);
    const withdrawn = await answers(HISTORY, BUILT_AT);
    for (const path of PATHS) expect(withdrawn[path], path).toBe(before[path]);
  });

  it('keeps the feed’s Link and a validator that answers 304', async () => {
    await confirm(CONFIRMED);
    const app = appOf(HISTORY, BUILT_AT);
    for (const path of ['/feed.atom?provider=provider_a', '/calendar.ics', '/api/timeline', '/api/timeline.csv']) {
      const first = (await app.request(path, undefined, NOW))!;
      const etag = first.headers.get('ETag');
      expect(etag, path).not.toBeNull();
      if (path.startsWith('/feed'))
        expect(first.headers.get('Link')).toBe(
          `<${ORIGIN}/websub>; rel="hub", <${ORIGIN}/feed.atom?provider=provider_a>; rel="self"`,
        );
      const again = (await app.request(path, { headers: { 'If-None-Match': etag! } }, NOW))!;
      expect(again.status, path).toBe(304);
    }
  });

  it('distributes through WebSub the feed its GET answers, the confirmed event in it', async () => {
    await confirm(CONFIRMED);
    const app = appOf(HISTORY, BUILT_AT);
    const topic = `${ORIGIN}/feed.xml?provider=provider_a`;
    const bodies: string[] = [];
    const fetcher = (async (_input: RequestInfo | URL, init?: RequestInit) => {
      bodies.push(await new Response(init?.body).text());
      return new Response(null, { status: 204 });
    }) as typeof fetch;
    const send = await webSubChannel.sender(
      { event: CONFIRMED, transition: 'announced', id: `${CONFIRMED.id}/announced` },
      { env: app.env, baseUrl: ORIGIN, rules: { allowLoopbackReceiver: true }, now: NOW, fetcher },
    );
    const subscriber = { id: 1, address: 'http://127.0.0.1:9/callback', locale: null };
    expect(await send({ ...subscriber, data: JSON.stringify({ topic, secret: null }) })).toEqual({ kind: 'sent' });
    const served = await (await app.request('/feed.xml?provider=provider_a', undefined, NOW))!.text();
    expect(bodies).toEqual([served]);
    expect(await readerSees('/feed.xml', served)).toBe(true);
  });

  it('writes the default timeline as the built files are, byte for byte, when the journal is empty', async () => {
    const app = appOf(HISTORY, BUILT_AT);
    const context = createContext(new Request(`${ORIGIN}/api/timeline`), app.env, NOW);
    const built = async (path: string) => (await app.env.ASSETS.fetch(new URL(path, ORIGIN))).text();
    expect(JSON.stringify(await defaultTimelineJson(context))).toBe(await built('/api/timeline'));
    expect(await defaultTimelineCsv(context)).toBe(await built('/api/timeline.csv'));
  });

  it('answers /api/events/<id> of a live journal event from the journal, and 404 once it is withdrawn', async () => {
    const app = appOf(HISTORY, BUILT_AT);
    const path = `/api/events/${CONFIRMED.id}`;
    expect((await app.request(path, undefined, NOW))!.status).toBe(404);
    await confirm(CONFIRMED);
    const response = (await app.request(path, undefined, NOW))!;
    expect(response.status).toBe(200);
    expect(EventRecordSchema.parse(await response.json())).toEqual({
      event: CONFIRMED,
      pageUrl,
      provenance: {
        recordedAt: null,
        verifiedAt: null,
        recordedCommit: null,
        verifiedCommit: null,
        lagMinutes: null,
        review: { confirmedAt: CONFIRMED_AT.toISOString(), state: 'awaiting-commit', commit: null },
      },
    });
    // A built event is still its shard's.
    expect((await app.request('/api/events/a-3', undefined, NOW))!.status).toBe(200);
    expect(await withdrawLive(state.db, CONFIRMED.id, NOW)).toBe(true);
    const gone = (await app.request(path, undefined, NOW))!;
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ error: 'invalid_event' });
  });
});
