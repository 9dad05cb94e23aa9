import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { assetsBinding, fixtureFiles, memoryKv } from '../../../scripts/lib/built-files.ts';
import { edgeApp } from '../../../scripts/lib/edge-app.ts';
import { startFeedServer, rssFeed, type FeedServer } from '../../../tests/support/feed-server.ts';
import { REAL_D1, stateDatabaseForFile } from '../../../tests/support/state-d1.ts';
import { startPushReceiver, type PushReceiver } from '../../../tests/support/push-receiver.ts';
import { stamped } from '../../core/build-stamp.ts';
import type { Event } from '../../core/schemas.ts';
import { makeEvent } from '../../core/test-events.ts';
import { draftKeysOf, WATCH_CONFIG_PATH } from '../../core/watch/watch-config.ts';
import { readSourceHealth } from '../source-health.ts';
import { runScheduledWatch } from './cron.ts';
import { scaled } from '../../../scripts/lib/load-scaled.ts';

/**
 * The minute cron's watcher in-process, against a real local D1 (Miniflare's, with the repository's migrations),
 * feeds on loopback that answer conditional requests as a feed host does, and a review channel on loopback. Each
 * run is handed its minute, as the cron's `scheduledTime` is. The same path served by workerd: tests/watch-cron.test.ts.
 */

const MINUTE = 60_000;
const START = new Date('2026-06-15T12:00:00.000Z');
const minute = (count: number) => new Date(START.getTime() + count * MINUTE);
const REPOSITORY = 'https://github.com/example-owner/departures-board';
const RULES = JSON.parse(readFileSync('content/watch/classification.json', 'utf8')) as unknown;

/** A published event the fixture build holds: a post of the watched account, already recorded. */
const RECORDED = makeEvent({
  id: '1900000000000000100',
  sourceUrl: 'https://posts.provider-a.example/@provider_a_eng/1900000000000000100',
  announcedAt: minute(-3 * 24 * 60).toISOString(),
});
/** A draft of the built tree (not published), whose post the feed also carries. */
const TREE_DRAFT = {
  id: '1900000000000000101',
  sourceUrl: 'https://posts.provider-a.example/@provider_a_eng/1900000000000000101',
};
/** What the build's watch configuration carries of it: the SHA-256 of its id and post URL, never them. */
const TREE_DRAFT_KEYS = await draftKeysOf([TREE_DRAFT]);

const post = (id: string, title: string, minutesBeforeStart: number) => ({
  link: `https://posts.provider-a.example/@provider_a_eng/${id}`,
  title,
  publishedAt: minute(-minutesBeforeStart).toISOString(),
});
const RECORDED_POST = post('1900000000000000100', 'Usage limits have been reset for everyone.', 3 * 24 * 60);
const TREE_DRAFT_POST = post('1900000000000000101', 'Limits are back to full.', 2 * 24 * 60);
const MEETUP = post('1900000000000000102', 'Thanks for coming to our meetup!', 24 * 60);
const NEW_RESET = post('1900000000000000103', 'We have reset weekly usage limits for everyone.', 30);

const database = stateDatabaseForFile();
let feeds: FeedServer;
let receiver: PushReceiver;

interface Setup {
  feedPaths?: string[];
  repositoryUrl?: string | null;
  webhook?: string;
  /** Which spelling of the loopback test switch is "true" (src/server/loopback.ts); false: both are "false". */
  loopback?: 'ALLOW_LOOPBACK_RECEIVERS' | 'PUSH_ALLOW_LOOPBACK_RECEIVER' | false;
  published?: Event[];
}

function env({
  feedPaths = ['/a.rss'],
  repositoryUrl = REPOSITORY,
  webhook,
  loopback = 'ALLOW_LOOPBACK_RECEIVERS',
  published = [RECORDED],
}: Setup = {}) {
  const files = new Map(fixtureFiles(published, START));
  const config = {
    sources: {
      provider_a: feedPaths.map((path) => ({ account: 'provider_a_eng', feed: `${feeds.origin}${path}` })),
      provider_b: [],
      provider_c: [{ account: 'providerc_status', feed: 'https://status.provider-c.example/history.json' }],
    },
    rules: RULES,
    repositoryUrl,
    draftKeys: TREE_DRAFT_KEYS,
  };
  files.set(WATCH_CONFIG_PATH, new TextEncoder().encode(JSON.stringify(stamped(config, 'fixture'))));
  return {
    ASSETS: assetsBinding(files),
    DB: database.db,
    ...(webhook === undefined ? {} : { REVIEW_WEBHOOK_URL: webhook }),
    ...(loopback === false
      ? { ALLOW_LOOPBACK_RECEIVERS: 'false', PUSH_ALLOW_LOOPBACK_RECEIVER: 'false' }
      : { [loopback]: 'true' }),
  };
}

const rows = async (sql: string) => (await database.db.prepare(sql).all<Record<string, unknown>>()).results;
const drafts = () =>
  rows('SELECT id, review_state, review_attempts, review_next_at, review_error FROM watch_drafts ORDER BY id');
const reviewRows = () =>
  rows(
    'SELECT review_state, review_attempts, review_next_at, review_error, review_status, review_tried_at, review_sent_at FROM watch_drafts',
  );
const report = async (at: Date) => readSourceHealth({ SOURCE_HEALTH: memoryKv(), DB: database.db }, at);

beforeAll(async () => {
  feeds = await startFeedServer();
  receiver = await startPushReceiver();
}, REAL_D1.timeout);
afterAll(async () => {
  await feeds.close();
  await receiver.close();
}, REAL_D1.timeout);
beforeEach(async () => {
  feeds.requests.length = 0;
  receiver.forget();
  feeds.serve('/a.rss', rssFeed([RECORDED_POST, TREE_DRAFT_POST, MEETUP]));
}, REAL_D1.timeout);
afterEach(async () => {
  vi.restoreAllMocks();
  await receiver.power.up();
  receiver.power.turnedAway.length = 0;
});

describe('the minute cron’s watcher', REAL_D1, () => {
  it('polls politely: the validators the next minute (304), nothing proposed of what is recorded, a new post once', async () => {
    const bindings = env({ webhook: `${receiver.origin}/services/T1/B1/review` });
    await runScheduledWatch(bindings, minute(0));
    expect(feeds.requestsTo('/a.rss').map((request) => request.status)).toEqual([200]);
    expect(await drafts()).toEqual([]);
    expect((await report(minute(0))).sources).toEqual([
      {
        provider: 'provider_a',
        name: 'provider_a_eng',
        url: `${feeds.origin}/a.rss`,
        checkedAt: minute(0).toISOString(),
        ok: true,
        error: null,
        itemsSeen: 3,
      },
    ]);

    // The same minute again (an overlapping run): the source is not asked twice.
    await runScheduledWatch(bindings, minute(0));
    expect(feeds.requestsTo('/a.rss')).toHaveLength(1);

    await runScheduledWatch(bindings, minute(1));
    const [, second] = feeds.requestsTo('/a.rss');
    expect(second!.headers['if-none-match']).toMatch(/^"[0-9a-f]{16}"$/);
    expect(second!.headers['if-modified-since']).toMatch(/GMT$/);
    expect(second!.status).toBe(304);
    expect(await report(minute(1))).toMatchObject({ checkedAt: minute(1).toISOString(), state: 'current' });
    expect((await report(minute(1))).sources[0]).toMatchObject({ ok: true, itemsSeen: 3 });

    feeds.serve('/a.rss', rssFeed([NEW_RESET, RECORDED_POST, TREE_DRAFT_POST, MEETUP]));
    await runScheduledWatch(bindings, minute(2));
    expect(feeds.requestsTo('/a.rss').map((request) => request.status)).toEqual([200, 304, 200]);
    expect(await drafts()).toEqual([
      expect.objectContaining({
        id: '1900000000000000103',
        review_state: 'sent',
        review_attempts: 1,
        review_error: null,
      }),
    ]);
    const [message] = receiver.received;
    expect(message!.path).toBe('/services/T1/B1/review');
    expect(message!.headers['content-type']).toBe('application/json');
    const body = JSON.parse(message!.body.toString()) as { text: string; blocks: { elements?: { url?: string }[] }[] };
    expect(body.text).toBe('New draft to review: Provider A: Reset (provider_a_eng)');
    const link = new URL(body.blocks[2]!.elements![0]!.url!);
    expect(link.searchParams.get('filename')).toBe('content/events/provider_a/1900000000000000103.json');
    expect(JSON.parse(link.searchParams.get('value')!)).toEqual({
      id: '1900000000000000103',
      provider: 'provider_a',
      kind: 'reset',
      scope: 'global',
      announcedAt: NEW_RESET.publishedAt,
      effectiveAt: null,
      sourceUrl: NEW_RESET.link,
      sourceAccount: 'provider_a_eng',
      summary: NEW_RESET.title,
      audience: [],
      verified: false,
    });

    // The next change of the feed does not propose the same post again, nor message it again.
    feeds.serve('/a.rss', rssFeed([NEW_RESET, RECORDED_POST, MEETUP]));
    await runScheduledWatch(bindings, minute(3));
    expect((await drafts()).map((draft) => draft.id)).toEqual(['1900000000000000103']);
    expect(receiver.received).toHaveLength(1);
  });

  it('backs off a failing source: the next minute’s run does not ask it, the report keeps its failure', async () => {
    feeds.fail('/a.rss', 503);
    const bindings = env();
    await runScheduledWatch(bindings, minute(0));
    await runScheduledWatch(bindings, minute(1));
    expect(feeds.requestsTo('/a.rss').map((request) => request.status)).toEqual([503]);
    const failing = await report(minute(1));
    expect(failing.checkedAt).toBe(minute(1).toISOString());
    expect(failing.sources[0]).toMatchObject({
      ok: false,
      error: 'answered HTTP 503',
      checkedAt: minute(0).toISOString(),
    });
    await runScheduledWatch(bindings, minute(2));
    await runScheduledWatch(bindings, minute(5));
    expect(feeds.requestsTo('/a.rss').map((request) => request.status)).toEqual([503, 503]);
    feeds.serve('/a.rss', rssFeed([MEETUP]));
    await runScheduledWatch(bindings, minute(6));
    expect(feeds.requestsTo('/a.rss').map((request) => request.status)).toEqual([503, 503, 200]);
    expect((await report(minute(6))).sources[0]).toMatchObject({ ok: true, error: null, itemsSeen: 1 });
  });

  it('without a review channel or a repository it polls, reports and keeps the draft, and says what is not set', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    feeds.serve('/a.rss', rssFeed([NEW_RESET]));
    await runScheduledWatch(env({ repositoryUrl: null }), minute(0));
    expect((await drafts()).map((draft) => [draft.id, draft.review_state])).toEqual([
      ['1900000000000000103', 'waiting'],
    ]);
    expect((await report(minute(0))).sources[0]).toMatchObject({ ok: true, itemsSeen: 1 });
    expect(receiver.received).toEqual([]);
    const said = warn.mock.calls.map((call) => String(call[0])).join('\n');
    expect(said).toContain('REVIEW_WEBHOOK_URL is not set');
    expect(said).toContain('REPOSITORY_URL was not set when the site was built');

    // Once configured, the draft that waited is sent.
    await runScheduledWatch(env({ webhook: `${receiver.origin}/api/webhooks/1/token` }), minute(1));
    expect((await drafts()).map((draft) => draft.review_state)).toEqual(['sent']);
    expect(receiver.received.map((message) => message.path)).toEqual(['/api/webhooks/1/token']);
  });

  it('tries a message the platform did not take again the next minute, honours Retry-After up to 30 minutes', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const webhook = `${receiver.origin}/api/webhooks/2/token`;
    receiver.answerNext(
      '/api/webhooks/2/token',
      { status: 503 },
      { status: 429, headers: { 'retry-after': '120' } },
      { status: 429, headers: { 'retry-after': '7200' } },
    );
    feeds.serve('/a.rss', rssFeed([NEW_RESET]));
    const bindings = env({ webhook });
    await runScheduledWatch(bindings, minute(0));
    expect(await reviewRows()).toEqual([
      {
        review_state: 'failed',
        review_attempts: 1,
        review_next_at: minute(1).toISOString(),
        review_error: 'answered HTTP 503',
        review_status: 503,
        review_tried_at: minute(0).toISOString(),
        review_sent_at: null,
      },
    ]);
    await runScheduledWatch(bindings, minute(1));
    expect(await reviewRows()).toMatchObject([
      { review_state: 'failed', review_attempts: 2, review_next_at: minute(3).toISOString(), review_status: 429 },
    ]);
    await runScheduledWatch(bindings, minute(2));
    expect(receiver.received).toHaveLength(2);
    await runScheduledWatch(bindings, minute(3));
    // Two hours asked: tried again after 30 minutes all the same (the longest wait).
    expect(await reviewRows()).toMatchObject([
      { review_state: 'failed', review_attempts: 3, review_next_at: minute(33).toISOString(), review_status: 429 },
    ]);
    await runScheduledWatch(bindings, minute(32));
    expect(receiver.received).toHaveLength(3);
    await runScheduledWatch(bindings, minute(33));
    expect(await reviewRows()).toEqual([
      {
        review_state: 'sent',
        review_attempts: 4,
        review_next_at: minute(43).toISOString(),
        review_error: null,
        review_status: null,
        review_tried_at: minute(33).toISOString(),
        review_sent_at: minute(33).toISOString(),
      },
    ]);
    expect(receiver.received.map((message) => message.status)).toEqual([503, 429, 429, 201]);
    expect(warn.mock.calls.map((call) => String(call[0]))).toEqual([
      `watch: the review message of draft 1900000000000000103 was not sent (try 1: answered HTTP 503); tried again at ${minute(1).toISOString()}`,
      `watch: the review message of draft 1900000000000000103 was not sent (try 2: answered HTTP 429); tried again at ${minute(3).toISOString()}`,
      `watch: the review message of draft 1900000000000000103 was not sent (try 3: answered HTTP 429); tried again at ${minute(33).toISOString()}`,
    ]);
  });

  it(
    'keeps a message the channel refuses (404, 401, no answer) and sends it once the channel is back, at the backoff’s pace',
    async () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
      vi.spyOn(console, 'log').mockImplementation(() => undefined);
      const path = '/api/webhooks/5/review-secret';
      const bindings = env({ webhook: `${receiver.origin}${path}` });
      feeds.serve('/a.rss', rssFeed([NEW_RESET]));
      receiver.power.answerAll({ status: 404, body: '{"message": "Unknown Webhook", "code": 10015}' });

      // Two hours and a half, the channel down, then fixed: each try is seen at the minute it is made. The cron runs
      // at each minute a try is due by the backoff (1, 2, 4, 8, 16, then 30 minutes, written by hand) and at the
      // minute before it, where a try made early would show (a run finds every try due by then), at each minute the
      // channel changes, and at the last; at the minutes between, a run finds nothing due (the row's review_next_at,
      // checked by hand below, is later), and each was a feed poll and a dozen D1 queries.
      const dueMinutes = [0, 1, 3, 7, 15, 31, 61, 91, 121];
      const runMinutes = new Set([...dueMinutes.flatMap((due) => [due - 1, due]), 20, 40, 70, 100, 150]);
      const tries: { minute: number; status: number }[] = [];
      const nextAts: string[] = [];
      let seen = 0;
      for (let count = 0; count <= 150; count += 1) {
        if (count === 20) receiver.power.answerAll({ status: 401 });
        if (count === 40) await receiver.power.refuseConnections();
        if (count === 70) {
          await receiver.power.up();
          receiver.power.answerAll({ status: 404 });
        }
        if (count === 100) await receiver.power.up();
        if (!runMinutes.has(count)) continue;
        await runScheduledWatch(bindings, minute(count));
        const sends = receiver.power.turnedAway.length + receiver.received.length;
        const [row] = await reviewRows();
        if (row!['review_attempts'] !== seen) {
          seen = row!['review_attempts'] as number;
          tries.push({ minute: count, status: (row!['review_status'] as number | null) ?? 200 });
          if (row!['review_state'] === 'failed') nextAts.push(row!['review_next_at'] as string);
        }
        // The refused connections reach no receiver: the row tells those tries.
        expect(sends).toBeLessThanOrEqual(seen);
      }
      expect(tries).toEqual([
        { minute: 0, status: 404 },
        { minute: 1, status: 404 },
        { minute: 3, status: 404 },
        { minute: 7, status: 404 },
        { minute: 15, status: 404 },
        { minute: 31, status: 401 },
        { minute: 61, status: 0 },
        { minute: 91, status: 404 },
        { minute: 121, status: 200 },
      ]);
      // 1, 2, 4, 8, 16, then 30 minutes: written by hand.
      expect(nextAts).toEqual(
        ['12:01', '12:03', '12:07', '12:15', '12:31', '13:01', '13:31', '14:01'].map(
          (time) => `2026-06-15T${time}:00.000Z`,
        ),
      );
      expect(receiver.received.map((message) => [message.path, message.status])).toEqual([[path, 201]]);
      expect(await reviewRows()).toMatchObject([
        {
          review_state: 'sent',
          review_attempts: 9,
          review_error: null,
          review_status: null,
          review_sent_at: '2026-06-15T14:01:00.000Z',
        },
      ]);

      // One line per failed try, none with the webhook's address or its token.
      const lines = warn.mock.calls.map((call) => call.map(String).join(' '));
      expect(lines).toHaveLength(8);
      expect(lines[0]).toBe(
        'watch: the review message of draft 1900000000000000103 was not sent (try 1: answered HTTP 404); tried again at 2026-06-15T12:01:00.000Z',
      );
      expect(lines[6]).toMatch(
        /^watch: the review message of draft 1900000000000000103 was not sent \(try 7: could not be reached \(.+\)\); tried again at 2026-06-15T13:31:00\.000Z$/,
      );
      for (const line of lines) {
        expect(line).not.toContain('review-secret');
        expect(line).not.toContain(receiver.origin);
      }
      const stored = await rows('SELECT review_error FROM watch_drafts');
      expect(JSON.stringify(stored)).not.toContain('review-secret');
    },
    scaled(120_000),
  );

  it('retries a message an older run marked failed for good', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    // As the worker before this rule left it: failed after a 404, its next try long past, never picked up again.
    await database.db
      .prepare(
        `INSERT INTO watch_drafts (id, provider, source_url, file, found_at, review_state, review_attempts, review_next_at, review_error)
         VALUES (?1, 'provider_a', ?2, ?3, ?4, 'failed', 1, ?4, 'answered HTTP 404')`,
      )
      .bind(
        '1900000000000000103',
        NEW_RESET.link,
        JSON.stringify(makeEvent({ id: '1900000000000000103', sourceUrl: NEW_RESET.link, verified: false })),
        minute(-3 * 24 * 60).toISOString(),
      )
      .run();
    await runScheduledWatch(env({ webhook: `${receiver.origin}/api/webhooks/6/t` }), minute(0));
    expect(receiver.received.map((message) => message.path)).toEqual(['/api/webhooks/6/t']);
    expect(await reviewRows()).toMatchObject([{ review_state: 'sent', review_attempts: 2, review_error: null }]);
  });

  it('stops trying once the draft’s post is in the build by other means: no message, the row leaves the table', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const path = '/api/webhooks/7/t';
    receiver.power.answerAll({ status: 404 });
    feeds.serve('/a.rss', rssFeed([NEW_RESET]));
    await runScheduledWatch(env({ webhook: `${receiver.origin}${path}` }), minute(0));
    expect(await reviewRows()).toMatchObject([{ review_state: 'failed', review_attempts: 1 }]);
    await receiver.power.up();

    // The reviewer (or the drafts pull request) published it meanwhile: the next build records it.
    const published = makeEvent({
      id: '1900000000000000103',
      sourceUrl: NEW_RESET.link,
      announcedAt: NEW_RESET.publishedAt,
    });
    await runScheduledWatch(env({ webhook: `${receiver.origin}${path}`, published: [RECORDED, published] }), minute(1));
    expect(receiver.received).toEqual([]);
    expect(await drafts()).toEqual([]);
    expect(log.mock.calls.map((call) => String(call[0]))).toContain(
      'watch: 1900000000000000103 already in the build (published or a draft of the tree): no review message, left out of watch_drafts',
    );
    // And it is not proposed again.
    await runScheduledWatch(env({ webhook: `${receiver.origin}${path}`, published: [RECORDED, published] }), minute(2));
    expect(await drafts()).toEqual([]);
    expect(receiver.received).toEqual([]);
  });

  it('refuses loopback feeds and webhooks while the loopback switch is off (the outbound-address policy)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    await runScheduledWatch(env({ loopback: false, webhook: `${receiver.origin}/api/webhooks/1/t` }), minute(0));
    expect(feeds.requests).toEqual([]);
    expect((await report(minute(0))).sources[0]).toMatchObject({
      ok: false,
      error: 'is not read by the worker: the feed must be an https URL',
    });
    expect(warn.mock.calls.map((call) => String(call[0])).join('\n')).toContain(
      'REVIEW_WEBHOOK_URL must be an https URL',
    );
  });

  it('never follows a feed’s redirect to an address the outbound policy refuses: the source fails, saying why', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    // Port 80 on this machine: not the loopback receiver's form (which names its port), refused even with the switch.
    feeds.redirect('/a.rss', 'http://127.0.0.1/a.rss');
    await runScheduledWatch(env(), minute(0));
    expect(feeds.requestsTo('/a.rss').map((request) => request.status)).toEqual([302]);
    expect((await report(minute(0))).sources[0]).toMatchObject({
      ok: false,
      error:
        'is redirected to an address the outbound policy refuses (redirect 1 of at most 3): the target must be an https URL',
    });
  });

  it('follows a redirect the policy allows, and the validators of its target earn a 304 the next minute', async () => {
    feeds.redirect('/a.rss', `${feeds.origin}/moved.rss`, 301);
    feeds.serve('/moved.rss', rssFeed([MEETUP]));
    await runScheduledWatch(env(), minute(0));
    await runScheduledWatch(env(), minute(1));
    expect(feeds.requests.map((request) => `${request.status} ${request.path}`)).toEqual([
      '301 /a.rss',
      '200 /moved.rss',
      '301 /a.rss',
      '304 /moved.rss',
    ]);
    expect((await report(minute(1))).sources[0]).toMatchObject({ ok: true, error: null, itemsSeen: 1 });
  });

  it('lets loopback feeds and webhooks through under the older switch, PUSH_ALLOW_LOOPBACK_RECEIVER, alone', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    feeds.serve('/a.rss', rssFeed([NEW_RESET]));
    const bindings = env({ loopback: 'PUSH_ALLOW_LOOPBACK_RECEIVER', webhook: `${receiver.origin}/api/webhooks/3/t` });
    expect(bindings).not.toHaveProperty('ALLOW_LOOPBACK_RECEIVERS');
    await runScheduledWatch(bindings, minute(0));
    expect(feeds.requestsTo('/a.rss').map((request) => request.status)).toEqual([200]);
    expect((await report(minute(0))).sources[0]).toMatchObject({ ok: true, error: null, itemsSeen: 1 });
    expect((await drafts()).map((draft) => draft.review_state)).toEqual(['sent']);
    expect(receiver.received.map((message) => message.path)).toEqual(['/api/webhooks/3/t']);
  });

  it('reports an answer that is no feed in words of its own: GET /api/sources and the log show none of its bytes', async () => {
    const said = [
      vi.spyOn(console, 'log').mockImplementation(() => undefined),
      vi.spyOn(console, 'warn').mockImplementation(() => undefined),
      vi.spyOn(console, 'error').mockImplementation(() => undefined),
    ];
    const SECRET = 'sk_live_51HdSECRETa1b2c3d4e5f6';
    feeds.serve(
      '/a.rss',
      `<?xml version="1.0"?>\n<rss><channel>\n<script>alert('${SECRET}')</script><item><title>${SECRET}`,
    );
    await runScheduledWatch(env(), minute(0));
    const app = edgeApp(fixtureFiles([RECORDED], START), { push: { DB: database.db } });
    const response = (await app.request('/api/sources', undefined, minute(1)))!;
    expect(response.status).toBe(200);
    const body = await response.text();
    expect((JSON.parse(body) as { sources: unknown[] }).sources).toEqual([
      expect.objectContaining({
        ok: false,
        error: 'is not a readable feed (not well-formed XML at line 3, column 70 (an element is not closed))',
      }),
    ]);
    const logged = said.flatMap((spy) => spy.mock.calls.flat().map(String)).join('\n');
    for (const bytes of [SECRET, 'script', 'alert']) {
      expect(body).not.toContain(bytes);
      expect(logged).not.toContain(bytes);
    }
  });

  it('forgets a feed no longer configured, and with only the samples writes no report', async () => {
    const bindings = env({ feedPaths: ['/a.rss', '/b.rss'] });
    feeds.serve('/b.rss', rssFeed([]));
    await runScheduledWatch(bindings, minute(0));
    expect((await rows('SELECT feed FROM watch_sources ORDER BY feed')).map((row) => row['feed'])).toEqual([
      `${feeds.origin}/a.rss`,
      `${feeds.origin}/b.rss`,
    ]);
    await runScheduledWatch(env({ feedPaths: ['/a.rss'] }), minute(1));
    expect((await rows('SELECT feed FROM watch_sources')).map((row) => row['feed'])).toEqual([`${feeds.origin}/a.rss`]);
    expect((await report(minute(1))).sources.map((source) => source.url)).toEqual([`${feeds.origin}/a.rss`]);

    await database.empty();
    await runScheduledWatch(env({ feedPaths: [] }), minute(2));
    expect(await report(minute(2))).toEqual({ checkedAt: null, sources: [], state: 'unknown' });
  });

  it('logs a run whose store fails and ends normally, for the next minute to try again', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const locked = {
      prepare: () => ({ all: () => Promise.reject(new Error('D1_ERROR: database is locked: SQLITE_BUSY')) }),
    } as unknown as D1Database;
    await expect(runScheduledWatch({ ...env(), DB: locked }, minute(0))).resolves.toBeUndefined();
    expect(error).toHaveBeenCalledTimes(1);
    expect(String(error.mock.calls[0]![0])).toBe(
      `watch run of ${minute(0).toISOString()} failed; the next minute's run tries again:`,
    );
    expect(String(error.mock.calls[0]![1])).toMatch(/database is locked/);
  });
});

describe('GET /api/sources reads the newest report', REAL_D1, () => {
  const kvReport = (checkedAt: Date) =>
    memoryKv({
      'source-report': JSON.stringify({
        checkedAt: checkedAt.toISOString(),
        sources: [
          {
            provider: 'provider_b',
            name: 'from-npm-run-watch',
            url: 'https://feeds.example/b.rss',
            checkedAt: checkedAt.toISOString(),
            ok: true,
            error: null,
            itemsSeen: 2,
          },
        ],
      }),
    });

  it('of the minute cron’s (D1) and the last npm run watch’s (KV)', async () => {
    await runScheduledWatch(env(), minute(0));
    const older = await readSourceHealth({ SOURCE_HEALTH: kvReport(minute(-10)), DB: database.db }, minute(1));
    expect(older.sources.map((source) => source.name)).toEqual(['provider_a_eng']);
    const newer = await readSourceHealth({ SOURCE_HEALTH: kvReport(minute(1)), DB: database.db }, minute(1));
    expect(newer.sources.map((source) => source.name)).toEqual(['from-npm-run-watch']);
    expect((await readSourceHealth({ SOURCE_HEALTH: kvReport(minute(0)) }, minute(6))).state).toBe('delayed');
  });
});
