import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { queryLocalD1 } from '../scripts/lib/local-d1.ts';
import type { RunningServer } from '../scripts/lib/local-server.ts';
import { giveNewBuildId } from '../scripts/lib/new-build-id.ts';
import type { EdgeDataset } from '../src/core/dataset.ts';
import type { Event } from '../src/core/schemas.ts';
import { type ChatReceiver, type ReceivedMessage, startChatReceiver } from './support/chat-receiver.ts';
import { DiscordExecuteWebhookSchema, SlackIncomingWebhookSchema } from './support/chat-shapes.ts';
import { uniqueClientIp } from './support/client-ip.ts';
import {
  createSubscriberKeys,
  decryptPush,
  startPushReceiver,
  verifyVapid,
  type PushReceiver,
  type SubscriberKeys,
} from './support/push-receiver.ts';
import {
  copyServedBuild,
  deliveriesSettled,
  eventually,
  publishWithFeeds,
  type ServedCopy,
} from './support/served-delivery.ts';
import { parseLinkHeader, startWebSubSubscriber, type WebSubSubscriber } from './support/websub-subscriber.ts';
import { scaled } from '../scripts/lib/load-scaled.ts';

/**
 * Delivery that leaves at once (decisions.md, "Push that leaves at once"), on every channel, in workerd as
 * `npm start` serves a build, with the loopback receivers allowed for this file only. A copy of the build is served;
 * its first request starts its dispatch, which meets the history. The old build then gets a push subscription, a
 * WebSub subscription with a secret (verified by the subscriber written from the W3C text), a Discord webhook and a
 * Slack webhook. Then the copy becomes a new build carrying a new reset (its data set and feeds, and a new build id:
 * scripts/lib/new-build-id.ts) and is served again on the same state, as a deploy does. Its first request (the
 * server's readiness request: every path runs the worker first) is the only trigger: no cron run, and the push, the
 * signed feed and both chat messages reach their receivers. The cron run afterwards finds the reset claimed and
 * sends nothing again to any of them.
 */

const builtBaseUrl = inject('baseUrl');
/** A generous hang guard for a delivery after the first request (it asserts no time). */
const DELIVERY_DEADLINE_MS = 60_000;

let copy: ServedCopy;
let server: RunningServer;
let pushReceiver: PushReceiver;
let chatReceiver: ChatReceiver;
let webSubSubscriber: WebSubSubscriber;
let publicKey: string;
let pushSubscriber: { path: string; keys: SubscriberKeys };
let firstBuildId: string;

const EVENT_ID = 'first-request-reset';
const SUMMARY = 'Limits reset for everyone, pushed at the first request.';
const SOURCE_URL = `https://posts.provider-a.example/${EVENT_ID}`;
const FEED_TOPIC = `${builtBaseUrl}/feed.xml?provider=provider_a`;
const WEBSUB_CALLBACK = '/websub/provider-a';
const WEBSUB_SECRET = 'the subscriber’s own secret for the first request';
const DISCORD_PATH = '/api/webhooks/1001/first-request-token';
const SLACK_PATH = '/services/T0/B1/first-request';

const buildIdOf = async () =>
  (
    JSON.parse(await readFile(copy.dataFile, 'utf8')) as EdgeDataset & {
      stamp: { buildId: string };
    }
  ).stamp.buildId;
const rows = (sql: string) => queryLocalD1(copy.state, sql);
const stateNames = async () =>
  (await rows('SELECT name FROM dispatch_state ORDER BY name')).map((row) => String(row['name']));

const newReset = (): Event => ({
  id: EVENT_ID,
  provider: 'provider_a',
  kind: 'reset',
  scope: 'global',
  announcedAt: new Date(Date.now() - 60_000).toISOString(),
  effectiveAt: null,
  sourceUrl: SOURCE_URL,
  sourceAccount: 'provider_a_team',
  summary: SUMMARY,
  audience: [],
  verified: true,
});

const post = (route: string, body: unknown) =>
  fetch(`${server.baseUrl}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': uniqueClientIp() },
    body: JSON.stringify(body),
  });

async function subscribeToPush(): Promise<void> {
  publicKey = ((await (await fetch(`${server.baseUrl}/api/push/key`)).json()) as { publicKey: string }).publicKey;
  const keys = createSubscriberKeys();
  const response = await post('/api/push/subscriptions', {
    subscription: { endpoint: `${pushReceiver.origin}/browser`, keys: { p256dh: keys.p256dh, auth: keys.auth } },
    providers: ['provider_a'],
    kinds: ['reset'],
    locale: 'en',
  });
  expect(response.status, await response.clone().text()).toBe(201);
  pushSubscriber = { path: '/browser', keys };
}

/** WebSub §5.1 to §5.3: a form POST to the hub (the copy's /websub), then the hub's verification GET confirmed. */
async function subscribeToFeed(): Promise<void> {
  const response = await webSubSubscriber.request(
    `${server.baseUrl}/websub`,
    'subscribe',
    FEED_TOPIC,
    WEBSUB_CALLBACK,
    {
      secret: WEBSUB_SECRET,
      clientIp: uniqueClientIp(),
    },
  );
  expect(response.status, await response.clone().text()).toBe(202);
  await webSubSubscriber.waitFor(() => webSubSubscriber.active(WEBSUB_CALLBACK), 'the hub’s verification of intent');
  await eventually(
    async () =>
      (await rows("SELECT address AS callback FROM subscribers WHERE channel = 'websub'")).some(
        (row) => row['callback'] === `${webSubSubscriber.origin}${WEBSUB_CALLBACK}`,
      ),
    'the verified WebSub subscription stored',
  );
}

async function connectWebhook(platform: 'discord' | 'slack', path: string): Promise<void> {
  const response = await post('/api/webhooks', {
    url: `${chatReceiver.origin}${path}`,
    providers: ['provider_a'],
    kinds: ['reset'],
    locale: 'en',
  });
  expect(response.status, await response.clone().text()).toBe(201);
  expect(await response.json()).toMatchObject({ platform });
}

/** What each receiver got, per channel. */
const arrivals = () => ({
  push: pushReceiver.received.filter((item) => item.path === pushSubscriber.path),
  websub: webSubSubscriber.deliveries.filter((item) => item.path === WEBSUB_CALLBACK),
  discord: chatReceiver.received.filter((item) => item.path === DISCORD_PATH),
  slack: chatReceiver.received.filter((item) => item.path === SLACK_PATH),
});
/** How many each receiver got, for the "nothing more" check and for a timeout's message. */
const tally = () => Object.fromEntries(Object.entries(arrivals()).map(([channel, items]) => [channel, items.length]));

beforeAll(async () => {
  pushReceiver = await startPushReceiver();
  chatReceiver = await startChatReceiver();
  webSubSubscriber = await startWebSubSubscriber();
  copy = await copyServedBuild('first-request');
  firstBuildId = await buildIdOf();

  server = await copy.serve();
  // This build's first request started its dispatch, which met the history (the first dispatch ever).
  await eventually(async () => (await stateNames()).includes('first_dispatch'), 'the first build dispatched');
  await subscribeToPush();
  await subscribeToFeed();
  await connectWebhook('discord', DISCORD_PATH);
  await connectWebhook('slack', SLACK_PATH);
  await server.stop();
  // Each webhook was told it is connected (tests/chat-webhooks.test.ts checks that message); the count is of events.
  chatReceiver.forget();

  await publishWithFeeds(copy, newReset());
  await giveNewBuildId(copy.dir);
}, scaled(240_000));

afterAll(async () => {
  await server?.stop();
  await pushReceiver?.close();
  await chatReceiver?.close();
  await webSubSubscriber?.close();
  await copy?.remove();
});

describe('a new build’s first request', () => {
  it(
    'delivers the new build’s event at once on every channel, without a cron run, and the cron sends it no more',
    async () => {
      expect(tally()).toEqual({ push: 0, websub: 0, discord: 0, slack: 0 });
      server = await copy.serve(); // its readiness request is the new build's first request
      await eventually(
        () => Object.values(tally()).every((count) => count >= 1),
        () => `a delivery on every channel after the first request (got ${JSON.stringify(tally())})`,
        DELIVERY_DEADLINE_MS,
      );
      // How long each channel took from the first request, printed for docs/delivery.md, never judged here: a shared
      // 2-core machine is slow at random (`npm run bench -- --push-only` measures push).
      const firstRequestAt = performance.timeOrigin + server.firstRequestAt;
      const took = Object.entries(arrivals()).map(
        ([channel, [first]]) => `${channel} ${((first!.at - firstRequestAt) / 1000).toFixed(1)} s`,
      );
      console.log(`first request → first delivery: ${took.join(', ')}`);

      // Web Push: encrypted for the subscriber's keys, signed with the deployment's VAPID key.
      const [push] = pushReceiver.received.filter((item) => item.path === pushSubscriber.path);
      expect(JSON.parse(decryptPush(push!, pushSubscriber.keys))).toMatchObject({
        eventId: EVENT_ID,
        transition: 'announced',
        body: SUMMARY,
      });
      expect(push!.headers.urgency).toBe('high');
      await verifyVapid(push!, publicKey, pushReceiver.origin.replace('http:', 'https:'));

      // WebSub §7, §8: the topic's feed as the new build serves it, its Link headers, signed with the secret.
      const [feed] = webSubSubscriber.deliveries.filter((item) => item.path === WEBSUB_CALLBACK);
      const served = await fetch(`${server.baseUrl}/feed.xml?provider=provider_a`);
      expect(feed!.body.equals(Buffer.from(await served.arrayBuffer()))).toBe(true);
      expect(feed!.body.toString()).toContain(`#event-${EVENT_ID}`);
      expect(feed!.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
      expect(parseLinkHeader(feed!.headers['link'] as string)).toEqual([
        { target: `${builtBaseUrl}/websub`, rels: ['hub'] },
        { target: FEED_TOPIC, rels: ['self'] },
      ]);
      expect(feed!.signature).toBe('valid');

      // Discord and Slack: the platforms' documented shapes, naming the new event by its link and its summary.
      const message = (path: string): ReceivedMessage => chatReceiver.received.find((item) => item.path === path)!;
      const eventLink = `${builtBaseUrl}/provider_a#event-${EVENT_ID}`;
      const discord = message(DISCORD_PATH);
      expect(discord.headers['content-type']).toBe('application/json');
      expect(DiscordExecuteWebhookSchema.safeParse(discord.body).error?.issues ?? []).toEqual([]);
      expect(discord.body).toMatchObject({
        content: 'Provider A: Reset',
        embeds: [{ title: 'Provider A: Reset', url: eventLink, description: expect.stringContaining(SUMMARY) }],
      });
      const slack = message(SLACK_PATH);
      expect(slack.headers['content-type']).toBe('application/json');
      expect(SlackIncomingWebhookSchema.safeParse(slack.body).error?.issues ?? []).toEqual([]);
      expect(slack.body).toMatchObject({
        text: 'Provider A: Reset',
        blocks: [
          { type: 'section', text: { text: `*<${eventLink}|Provider A: Reset>*\n${SUMMARY}` } },
          { type: 'context', elements: [{ text: expect.stringContaining(`<${SOURCE_URL}|Original post>`) }] },
        ],
      });

      // The first request, not a cron, started it: the new build's mark is there beside the old one's.
      const newBuildId = await buildIdOf();
      expect(newBuildId).not.toBe(firstBuildId);
      expect(await stateNames()).toEqual([`build:${firstBuildId}`, `build:${newBuildId}`, 'first_dispatch']);
      const claimed = () => rows(`SELECT found_at, suppressed FROM notifications WHERE event_id = '${EVENT_ID}'`);
      const [claim] = await claimed();
      expect(claim).toMatchObject({ suppressed: 0 });

      // The safety net runs now: it finds the reset claimed, so it fans nothing out on any channel.
      const cron = await fetch(`${server.baseUrl}/cdn-cgi/local/scheduled?cron=*+*+*+*+*`);
      expect(cron.status).toBe(200);
      expect(await claimed()).toEqual([claim]);
      // The receivers agree once the wing can send nothing more by itself.
      await deliveriesSettled(copy);
      expect(tally()).toEqual({ push: 1, websub: 1, discord: 1, slack: 1 });
      const ledger = async (table: string, where: string) =>
        (await rows(`SELECT count(*) AS n FROM ${table} WHERE ${where}`))[0];
      // One ledger row per subscriber and channel, each sent: push 1, WebSub 1, Discord 1, Slack 1.
      const sent = (channel: string) =>
        ledger(
          'deliveries d JOIN subscribers s ON s.id = d.subscriber_id',
          `d.event_id = '${EVENT_ID}' AND d.state = 'sent' AND s.channel = '${channel}'`,
        );
      for (const channel of ['push', 'websub', 'discord', 'slack']) expect(await sent(channel)).toEqual({ n: 1 });
    },
    2 * DELIVERY_DEADLINE_MS,
  ); // room for the deadline's own message
});
