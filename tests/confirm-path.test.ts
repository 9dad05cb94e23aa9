import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  atOrigin,
  confirmLinkIn,
  firstSeen,
  postConfirm,
  REVIEW_WEBHOOK_PATH,
  resetPost,
  SUBSCRIBER_WEBHOOK_PATH,
  secondsSince,
  subscribeChatWebhook,
  subscribePush,
  watchLoopbackFeed,
} from '../scripts/lib/demo/confirm-path.ts';
import { queryLocalD1 } from '../scripts/lib/local-d1.ts';
import { type RunningServer, startServer } from '../scripts/lib/local-server.ts';
import type { Event } from '../src/core/schemas.ts';
import { type ChatReceiver, startChatReceiver } from './support/chat-receiver.ts';
import { uniqueClientIp } from './support/client-ip.ts';
import { type FeedServer, rssFeed, startFeedServer } from './support/feed-server.ts';
import { type GithubReceiver, startGithubReceiver } from './support/github-receiver.ts';
import { nextBuildWith, readEventTree } from './support/next-build.ts';
import {
  createSubscriberKeys,
  decryptPush,
  type PushReceiver,
  type SubscriberKeys,
  startPushReceiver,
} from './support/push-receiver.ts';
import { SERVED_REPOSITORY_URL } from './support/served-build.ts';
import {
  copyServedBuild,
  eventually,
  MINUTE_MS,
  minuteOf,
  runCron,
  type ServedCopy,
  webSubSubscriptionStored,
} from './support/served-delivery.ts';
import { startWebSubSubscriber, type WebSubSubscriber } from './support/websub-subscriber.ts';
import { scaled } from '../scripts/lib/load-scaled.ts';

/**
 * Confirmed within a minute, served end to end (decisions.md, "Confirmed within a minute"; docs/watch.md, "From a
 * post to every channel"): a copy of the shared build watches a feed on loopback, with the review channel, a
 * subscriber's Discord webhook, a push service, a WebSub subscriber and a GitHub repository on loopback (the
 * loopback test switch on in this server only). A post appears, the cron (`/cdn-cgi/local/scheduled`) makes its
 * draft and tells the reviewer with a confirm link; a GET of the link changes nothing; the form's POST confirms, and
 * every output and channel shows the event, the file reaching git through the contents API. The seconds from the
 * confirm to each are printed, never asserted. Then a next build that holds the event serves on the same state: the
 * journal entry retires, and every output still shows the event once.
 */

const EVENT_ID = '1999000000000000777';
const GITHUB_TOKEN = `github_pat_${randomBytes(12).toString('hex')}`;
const builtBaseUrl = inject('baseUrl');

let feeds: FeedServer;
let chat: ChatReceiver;
let push: PushReceiver;
let pushKeys: SubscriberKeys;
let websub: WebSubSubscriber;
let github: GithubReceiver;
let copy: ServedCopy;
let next: string;
let workspace: string;
let server: RunningServer;
let mcp: Client;
let startMinute: Date;
const minutesAfterStart = (count: number) => new Date(startMinute.getTime() + count * MINUTE_MS);

const post = () => resetPost(EVENT_ID, startMinute);
const meetup = () => ({
  link: 'https://posts.provider-a.example/@provider_a_eng/1999000000000000700',
  title: 'Thanks to everyone who came to our meetup!',
  publishedAt: minutesAfterStart(-60).toISOString(),
});

/** The copy (or the next build) served on the copy's state, with the review and commit secrets set. */
const serve = (dir: string) =>
  startServer({
    workerConfig: path.join(dir, 'server/wrangler.json'),
    persistTo: copy.state,
    vars: { ALLOW_LOOPBACK_RECEIVERS: 'true' },
    secrets: {
      REVIEW_WEBHOOK_URL: `${chat.origin}${REVIEW_WEBHOOK_PATH}`,
      REVIEW_SIGNING_KEY: randomBytes(32).toString('base64url'),
      GITHUB_TOKEN,
      GITHUB_API_URL: github.origin,
    },
  });

/** An MCP client of the SDK whose every request comes from a client address of its own (the MCP rate limit). */
async function connectMcp(baseUrl: string): Promise<Client> {
  const client = new Client({ name: 'departures-board-tests', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
      fetch: (url, init) => {
        const headers = new Headers(init?.headers);
        headers.set('CF-Connecting-IP', uniqueClientIp());
        return fetch(url, { ...init, headers });
      },
    }),
  );
  return client;
}

const text = async (pathAndQuery: string) => {
  const response = await fetch(`${server.baseUrl}${pathAndQuery}`);
  if (response.status !== 200) throw new Error(`${pathAndQuery} answered ${response.status}`);
  return response.text();
};
const occurrences = (haystack: string, needle: string) => haystack.split(needle).length - 1;
/** How many of a feed document's items (each opened by `open`) name the event's anchor. */
const itemsNaming = (feed: string, open: string) =>
  feed
    .split(open)
    .slice(1)
    .filter((item) => item.includes(`event-${EVENT_ID}`)).length;

interface StatusBody {
  providers: { provider: string; status: string; lastReset: Event | null; latestSignal: Event | null }[];
}
const statusOf = async () => JSON.parse(await text('/api/status')) as StatusBody;
const boardOfStatus = (status: StatusBody) =>
  status.providers.map((entry) => [entry.provider, entry.status, entry.lastReset?.id, entry.latestSignal?.id]);

/** Every table a reviewer's GET could write to: what D1 holds of the watcher, the journal and the delivery wing. */
const stateRows = async () =>
  Object.fromEntries(
    await Promise.all(
      ['watch_drafts', 'journal', 'notifications', 'deliveries', 'subscribers'].map(
        async (table) => [table, await queryLocalD1(copy.state, `SELECT * FROM ${table} ORDER BY 1`)] as const,
      ),
    ),
  );

/**
 * How many times each output names the event, read at one moment: a count of 0 is "not shown". The anchor
 * `event-<id>` is how the pages and feeds link an event; the status and MCP are read as data.
 */
const OUTPUTS: Record<string, () => Promise<number>> = {
  '/api/status': async () =>
    (await statusOf()).providers.find((p) => p.provider === 'provider_a')?.lastReset?.id === EVENT_ID ? 1 : 0,
  '/api/timeline': async () =>
    (JSON.parse(await text('/api/timeline')) as { events: Event[] }).events.filter((event) => event.id === EVENT_ID)
      .length,
  '/feed.xml': async () => itemsNaming(await text('/feed.xml'), '<item>'),
  '/feed.atom': async () => itemsNaming(await text('/feed.atom'), '<entry>'),
  '/feed.json': async () =>
    (JSON.parse(await text('/feed.json')) as { items: unknown[] }).items.filter((item) =>
      JSON.stringify(item).includes(`event-${EVENT_ID}`),
    ).length,
  '/index.md': async () => occurrences(await text('/index.md'), `#event-${EVENT_ID}>`),
  'MCP get_timeline': async () => {
    const result = await mcp.callTool({ name: 'get_timeline', arguments: { limit: 20 } });
    const events = (result.structuredContent as { events: Event[] } | undefined)?.events ?? [];
    return events.filter((event) => event.id === EVENT_ID).length;
  },
  [`/api/events/${EVENT_ID}`]: async () => {
    const response = await fetch(`${server.baseUrl}/api/events/${EVENT_ID}`);
    return response.status === 200 && ((await response.json()) as { event: Event }).event.id === EVENT_ID ? 1 : 0;
  },
  '/ (the board)': async () => occurrences(await text('/'), post().title),
  '/provider_a': async () => occurrences(await text('/provider_a'), `id="event-${EVENT_ID}"`),
};

/** What each channel's receiver got of the event. */
const pushesOfEvent = () =>
  push.received.filter(
    (received) =>
      received.status < 300 &&
      (JSON.parse(decryptPush(received, pushKeys)) as { eventId: string }).eventId === EVENT_ID,
  );
const chatOfEvent = () =>
  chat.received.filter(
    (received) => received.path === SUBSCRIBER_WEBHOOK_PATH && JSON.stringify(received.body).includes(EVENT_ID),
  );
const websubOfEvent = () =>
  websub.deliveries.filter((delivery) => delivery.body.toString('utf8').includes(`event-${EVENT_ID}`));
const githubPut = () =>
  github.requests.find(
    (request) =>
      request.method === 'PUT' &&
      request.path.endsWith(`/contents/content/events/provider_a/${EVENT_ID}.json`) &&
      request.status < 300,
  );
const CHANNELS: Record<string, () => boolean> = {
  'push (decrypted)': () => pushesOfEvent().length > 0,
  'Discord webhook (subscriber)': () => chatOfEvent().length > 0,
  'WebSub (feed.xml)': () => websubOfEvent().length > 0,
  'GitHub contents PUT': () => githubPut() !== undefined,
};

beforeAll(async () => {
  startMinute = minuteOf(new Date());
  [feeds, chat, push, websub, github] = await Promise.all([
    startFeedServer(),
    startChatReceiver(),
    startPushReceiver(),
    startWebSubSubscriber(),
    startGithubReceiver({ owner: 'owner', repo: 'departures-board', token: GITHUB_TOKEN }),
  ]);
  workspace = await mkdtemp(path.join(tmpdir(), 'departures-board-confirm-'));
  next = path.join(workspace, 'next-build');
  copy = await copyServedBuild('confirm');
  await watchLoopbackFeed(copy.dir, `${feeds.origin}/provider_a_eng.rss`, SERVED_REPOSITORY_URL);
  feeds.serve('/provider_a_eng.rss', rssFeed([meetup()]));
  server = await serve(copy.dir);
  mcp = await connectMcp(server.baseUrl);

  // Every channel subscribed beforehand through the public write APIs, as people subscribe.
  await subscribeChatWebhook(server.baseUrl, `${chat.origin}${SUBSCRIBER_WEBHOOK_PATH}`, uniqueClientIp());
  pushKeys = createSubscriberKeys();
  await subscribePush(
    server.baseUrl,
    { endpoint: `${push.origin}/browser`, keys: { p256dh: pushKeys.p256dh, auth: pushKeys.auth } },
    uniqueClientIp(),
  );
  const hubAnswer = await websub.request(`${server.baseUrl}/websub`, 'subscribe', `${builtBaseUrl}/feed.xml`, '/all', {
    clientIp: uniqueClientIp(),
  });
  expect(hubAnswer.status, await hubAnswer.clone().text()).toBe(202);
  await websub.waitFor(() => websub.active('/all'), 'the hub’s verification of /all');
  await webSubSubscriptionStored(copy, `${websub.origin}/all`);

  // The first minute: the feed read (nothing new in it), and the first dispatch meets the build's history.
  await runCron(server, startMinute);
}, scaled(240_000));

afterAll(async () => {
  await mcp?.close();
  await server?.stop();
  await Promise.all([feeds?.close(), chat?.close(), push?.close(), websub?.close(), github?.close()]);
  await copy?.remove();
  if (workspace) await rm(workspace, { recursive: true, force: true });
});

let confirmLink: string;
/** The outputs' counts once the confirm showed everywhere, compared after the next build. */
const shown: Record<string, number> = {};

describe('from a post to every channel, confirmed on the review page', () => {
  it('the post appears, the next cron makes its draft and tells the reviewer with a confirm link', async () => {
    feeds.serve('/provider_a_eng.rss', rssFeed([post(), meetup()]));
    await runCron(server, minutesAfterStart(1));
    expect(await queryLocalD1(copy.state, 'SELECT id, review_state, decision FROM watch_drafts')).toEqual([
      { id: EVENT_ID, review_state: 'sent', decision: null },
    ]);
    const [message] = await chat.waitFor(1, REVIEW_WEBHOOK_PATH);
    const link = confirmLinkIn(message!.body);
    expect(link, JSON.stringify(message!.body)).toBeDefined();
    expect(new URL(link!).pathname).toBe(`/review/${EVENT_ID}`);
    // Made for the build's {base_url}; this copy serves it at another port.
    confirmLink = atOrigin(link!, server.baseUrl);
    for (const [name, count] of Object.entries(OUTPUTS)) expect(await count(), name).toBe(0);
  });

  it('a GET of the link shows the draft and changes nothing', async () => {
    const rowsBefore = await stateRows();
    const statusBefore = boardOfStatus(await statusOf());
    const page = await fetch(confirmLink);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(post().title);
    expect(html).toContain('value="confirm"');
    expect(await stateRows()).toEqual(rowsBefore);
    expect(boardOfStatus(await statusOf())).toEqual(statusBefore);
  });

  it(
    'the POST confirms: every output and every channel shows the event within seconds',
    async () => {
      const html = await (await fetch(confirmLink)).text();
      const confirmedAt = performance.now();
      const answer = await postConfirm(confirmLink, html);
      expect(answer.status, await answer.clone().text()).toBe(303);

      const seen = await Promise.all([
        ...Object.entries(OUTPUTS).map(([name, count]) =>
          firstSeen(async () => ((await count()) > 0 ? count() : undefined), name, { timeoutMs: scaled(45_000) }).then(
            ({ value, at }) => {
              shown[name] = value;
              return [name, at] as const;
            },
            () => [name, undefined] as const,
          ),
        ),
        ...Object.entries(CHANNELS).map(([name, got]) =>
          firstSeen(async () => (got() ? true : undefined), name, { timeoutMs: scaled(45_000) }).then(
            ({ at }) => [name, at] as const,
            () => [name, undefined] as const,
          ),
        ),
      ]);
      console.log(
        `seconds from the confirm's POST to each output and channel (${new Date().toISOString()}):\n${seen
          .map(
            ([name, at]) =>
              `  ${name.padEnd(32)} ${(at === undefined ? 'never' : secondsSince(confirmedAt, at)).padStart(5)}`,
          )
          .join('\n')}`,
      );
      // What never came is named, with what the receivers got and the worker's log.
      const received = () =>
        JSON.stringify({
          websub: websub.deliveries.map((delivery) => [delivery.path, delivery.status, delivery.body.length]),
          github: github.requests.map((request) => [request.method, request.path, request.status]),
          log: server.output().slice(-2000),
        });
      expect(
        seen.filter(([, at]) => at === undefined).map(([name]) => name),
        received(),
      ).toEqual([]);
      expect(Object.values(shown).every((count) => count > 0)).toBe(true);
      expect(shown['/api/timeline']).toBe(1);
      expect(shown['MCP get_timeline']).toBe(1);

      // Each channel told once, in its own form.
      expect(pushesOfEvent()).toHaveLength(1);
      expect(chatOfEvent()).toHaveLength(1);
      expect(websubOfEvent().length).toBeGreaterThanOrEqual(1);
      const journal = await queryLocalD1(copy.state, 'SELECT id, state FROM journal');
      expect(journal).toEqual([{ id: EVENT_ID, state: 'live' }]);
    },
    scaled(90_000),
  );

  it('the file the worker committed through the contents API passes npm run validate', async () => {
    const put = githubPut()!;
    expect(put.headers.authorization).toBe(`Bearer ${GITHUB_TOKEN}`);
    const file = Buffer.from((JSON.parse(put.body) as { content: string }).content, 'base64').toString('utf8');
    const event = JSON.parse(file) as Event;
    const { event: served } = (await (await fetch(`${server.baseUrl}/api/events/${EVENT_ID}`)).json()) as {
      event: Event;
    };
    expect(event).toEqual(served);
    expect(event).toMatchObject({ id: EVENT_ID, provider: 'provider_a', kind: 'reset', verified: true });

    const events = path.join(workspace, 'events');
    await mkdir(path.join(events, 'provider_a'), { recursive: true });
    await writeFile(path.join(events, 'provider_a', `${EVENT_ID}.json`), file);
    const run = spawnSync(process.execPath, ['scripts/validate.ts'], {
      env: { ...process.env, EVENTS_DIR: events },
      encoding: 'utf8',
    });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
  });

  it('the next build holds the event: its journal entry retires and every output shows the event once', async () => {
    const committed = JSON.parse(github.files.get(`content/events/provider_a/${EVENT_ID}.json`)!.text) as Event;
    const events = [...(await readEventTree(inject('servedEventsDir'))), committed];
    await mcp.close();
    await server.stop();
    await nextBuildWith(copy.dir, next, events, builtBaseUrl);
    server = await serve(next);
    mcp = await connectMcp(server.baseUrl);
    // The new build's first request already asked for its dispatch; the minute's cron is the safety net.
    await runCron(server, minutesAfterStart(2));
    await eventually(
      async () =>
        (await queryLocalD1(copy.state, `SELECT state FROM journal WHERE id = '${EVENT_ID}'`))[0]?.['state'] ===
        'retired',
      'the journal entry retired',
      60_000,
    );
    expect(await queryLocalD1(copy.state, "SELECT count(*) AS live FROM journal WHERE state = 'live'")).toEqual([
      { live: 0 },
    ]);
    for (const [name, count] of Object.entries(OUTPUTS)) expect(await count(), name).toBe(shown[name]);
    // Nothing was sent twice for it: the dispatch knows the pair it claimed from the journal.
    expect(pushesOfEvent()).toHaveLength(1);
    expect(chatOfEvent()).toHaveLength(1);
  });
});
