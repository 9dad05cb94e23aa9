import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { queryLocalD1 } from '../scripts/lib/local-d1.ts';
import type { RunningServer } from '../scripts/lib/local-server.ts';
import { type ChatReceiver, startChatReceiver } from './support/chat-receiver.ts';
import { uniqueClientIp } from './support/client-ip.ts';
import { lockLocalD1 } from './support/d1-lock.ts';
import {
  createSubscriberKeys,
  decryptPush,
  type PushReceiver,
  type SubscriberKeys,
  startPushReceiver,
} from './support/push-receiver.ts';
import type { ReceiverSwitch } from './support/switchable-receiver.ts';
import {
  copyServedBuild,
  deliveriesInFlightRecorded,
  eventually,
  MINUTE_MS,
  minuteOf,
  publishedReset,
  publishWithFeeds,
  runCron as runCronAt,
  type ServedCopy,
  webSubSubscriptionStored,
} from './support/served-delivery.ts';
import { startWebSubSubscriber, type WebSubSubscriber } from './support/websub-subscriber.ts';
import { scaled } from '../scripts/lib/load-scaled.ts';
import { QUEUED_LEASE_MS } from '../src/server/delivery/policy.ts';

/**
 * The delivery wing's promise under real faults (decisions.md, "Delivery that loses nothing"; docs/delivery.md,
 * "The promise"), in a served build of its own with every channel's receiver on loopback:
 * - the state database locked (a real SQLite write lock on the served D1 file) for over a minute while every
 *   channel's sends are in flight, so that no outcome can be recorded, the queue messages exhaust their retries and
 *   the dead-letter queue's, and the cron runs of those minutes fail;
 * - every receiver then failing (503) for three hours of cron time, and recovering;
 * - subscribers removed, and new ones made, before the next transition.
 * Each subscriber must get each (event, transition) exactly once: counted at the receivers, from what each received
 * and accepted (2xx), in each platform's own terms (the push payload decrypted, the Discord and Slack message's
 * link to the event, the feed's entries), never from the service's own ledger.
 */

const builtBaseUrl = inject('baseUrl');
const EVENT_ID = 'fault-reset';
/** The lock is held longer than this: "locked for over a minute". */
const LOCK_MS = 70_000;
/** The cron minute at which the published reset takes effect: its second transition. */
const EFFECTIVE_MINUTE = 300;
/** The receivers are down for this long of the cron's clock. */
const DOWN_MINUTES = 180;

let copy: ServedCopy;
let server: RunningServer;
let push: PushReceiver;
let chat: ChatReceiver;
let webSub: WebSubSubscriber;
let startMinute: Date;
const minutesAfterStart = (minutes: number) => new Date(startMinute.getTime() + minutes * MINUTE_MS);
const runCron = (minutes: number) => runCronAt(server, minutesAfterStart(minutes));
/**
 * The first cron minute at which every hold taken so far has ended. A queue consumer runs at its message's clock or
 * the real one, whichever is later (docs/delivery.md, "One clock"), so where the setup took longer than the cron's
 * first minutes (a busy machine) the holds of the sends in flight were taken at the real clock, and last up to a
 * queued hold's length from there. A dead letter whose read-back failed while the database was locked leaves its
 * hold to end by itself; a cron run before that minute would rightly leave the rows alone.
 */
const minuteAfterEveryHold = () =>
  Math.max(4, Math.ceil((Date.now() + QUEUED_LEASE_MS - startMinute.getTime()) / MINUTE_MS));

interface PushSubscriber {
  path: string;
  keys: SubscriberKeys;
}

const pushSubscribers = new Map<string, PushSubscriber>();

async function write(route: string, method: 'POST' | 'DELETE', body: unknown): Promise<Response> {
  return fetch(`${server.baseUrl}${route}`, {
    method,
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': uniqueClientIp() },
    body: JSON.stringify(body),
  });
}

async function subscribePush(name: string, providers: string[]): Promise<void> {
  const keys = createSubscriberKeys();
  const response = await write('/api/push/subscriptions', 'POST', {
    subscription: { endpoint: `${push.origin}/${name}`, keys: { p256dh: keys.p256dh, auth: keys.auth } },
    providers,
    kinds: ['reset'],
    locale: 'en',
  });
  expect(response.status, await response.clone().text()).toBe(201);
  pushSubscribers.set(`/${name}`, { path: `/${name}`, keys });
}

async function connectWebhook(webhookPath: string, providers: string[]): Promise<void> {
  const response = await write('/api/webhooks', 'POST', { url: `${chat.origin}${webhookPath}`, providers });
  expect(response.status, await response.clone().text()).toBe(201);
}

async function subscribeWebSub(callbackPath: string, topic: string): Promise<void> {
  const response = await webSub.request(`${server.baseUrl}/websub`, 'subscribe', topic, callbackPath, {
    clientIp: uniqueClientIp(),
  });
  expect(response.status).toBe(202);
  await webSub.waitFor(() => webSub.active(callbackPath), `the verification of ${callbackPath}`);
  await webSubSubscriptionStored(copy, `${webSub.origin}${callbackPath}`);
}

const PUSH_KEPT = ['/push-1', '/push-2'];
const PUSH_REMOVED = '/push-removed';
const DISCORD_KEPT = '/api/webhooks/1/kept';
const DISCORD_REMOVED = '/api/webhooks/2/removed';
const SLACK_KEPT = '/services/T1/B1/kept';
const WEBSUB_ALL = '/callback/all';
const WEBSUB_PROVIDER = '/callback/provider-a';
const NEWCOMERS = ['/push-newcomer', '/api/webhooks/3/newcomer'];

/**
 * The messages about events at a chat webhook: each carries its delivery's id. A new webhook's message saying it is
 * connected carries none (tests/chat-webhooks.test.ts checks it), and is no delivery.
 */
const chatEvents = (webhookPath: string) =>
  chat.received.filter((item) => item.path === webhookPath && item.headers['idempotency-key'] !== undefined);

/** What each subscriber accepted (answered 2xx): "event/transition" items, counted as they came. */
function acceptedBy(subscriberPath: string): string[] {
  const pushSubscriber = pushSubscribers.get(subscriberPath);
  if (pushSubscriber !== undefined)
    return push.received
      .filter((item) => item.path === subscriberPath && item.status < 300)
      .map((item) => {
        const payload = JSON.parse(decryptPush(item, pushSubscriber.keys)) as { eventId: string; transition: string };
        return `${payload.eventId}/${payload.transition}`;
      });
  if (subscriberPath.startsWith('/callback/'))
    return webSub.deliveries
      .filter((item) => item.path === subscriberPath && item.status < 300)
      .map((item) => {
        // The feed as served lists the event (its entry's link names its anchor); the delivery's id names which.
        expect(item.body.toString('utf8')).toContain(`#event-${EVENT_ID}`);
        return String(item.headers['idempotency-key']);
      });
  return chatEvents(subscriberPath)
    .filter((item) => item.status < 300)
    .map((item) => {
      // Discord's embed and Slack's section both link the event's anchor (the platforms' documented fields).
      expect(JSON.stringify(item.body)).toContain(`#event-${EVENT_ID}`);
      return String(item.headers['idempotency-key']);
    });
}

const everySwitch = (): ReceiverSwitch[] => [push.power, chat.power, webSub.power];
/** The subscribers with a send held at their receiver (a held request's path, its query left out). */
const heldSubscribers = () =>
  new Set(everySwitch().flatMap((power) => power.held.map(({ path }) => new URL(path, 'http://receiver').pathname)));

/** The worker's last lines that name a delivery: what a wait that never ends is read with (docs/testing.md). */
const deliveryLog = () =>
  server
    .output()
    .split('\n')
    .filter((line) => /deliver|dead-letter/i.test(line))
    .slice(-30)
    .join('\n');

const settled = () => deliveriesInFlightRecorded(copy, 60_000);

beforeAll(async () => {
  startMinute = minuteOf(new Date());
  [push, chat, webSub] = await Promise.all([startPushReceiver(), startChatReceiver(), startWebSubSubscriber()]);
  copy = await copyServedBuild('faults');
  server = await copy.serve();
  for (const name of PUSH_KEPT) await subscribePush(name.slice(1), ['provider_a']);
  await subscribePush(PUSH_REMOVED.slice(1), ['provider_a']);
  await connectWebhook(DISCORD_KEPT, ['provider_a']);
  await connectWebhook(DISCORD_REMOVED, ['provider_a']);
  await connectWebhook(SLACK_KEPT, ['provider_a']);
  await subscribeWebSub(WEBSUB_ALL, `${builtBaseUrl}/feed.xml`);
  await subscribeWebSub(WEBSUB_PROVIDER, `${builtBaseUrl}/feed.atom?provider=provider_a`);
  // The first dispatch meets the fixture's history; then a reset is published (a new build: the same state).
  await runCron(0);
  await server.stop();
  await publishWithFeeds(copy, publishedReset(EVENT_ID, minutesAfterStart(-5), minutesAfterStart(EFFECTIVE_MINUTE)));
  server = await copy.serve();
}, scaled(240_000));

afterAll(async () => {
  await server?.stop();
  await Promise.all([push?.close(), chat?.close(), webSub?.close()]);
  await copy?.remove();
});

const SUBSCRIBERS_BEFORE = [
  ...PUSH_KEPT,
  PUSH_REMOVED,
  DISCORD_KEPT,
  DISCORD_REMOVED,
  SLACK_KEPT,
  WEBSUB_ALL,
  WEBSUB_PROVIDER,
];

describe('every subscriber gets each transition exactly once, whatever fails', () => {
  it(
    'survives the database locked for over a minute with every send in flight, and receivers down for three hours',
    async () => {
      for (const power of everySwitch()) power.holdAll();
      await runCron(1);
      // Every subscriber's send held. Not a count of held requests: on a slow machine a send can reach its 10 s
      // timeout before the last subscriber's first send arrives, and is tried again (held too) as it should be.
      await eventually(
        () => {
          const held = heldSubscribers();
          return SUBSCRIBERS_BEFORE.every((subscriber) => held.has(subscriber));
        },
        () =>
          `sends held at the receivers for ${[...heldSubscribers()].join(', ') || 'none'} of ${SUBSCRIBERS_BEFORE.join(', ')}; the worker's last lines on deliveries:\n${deliveryLog()}`,
        60_000,
      );

      // The database is locked while every send is in flight; the receivers then fail them all. No outcome can be
      // recorded: each message is tried again by the queue until it reaches the dead-letter queue, whose own tries
      // fail too; the cron runs of these minutes fail as well.
      const lock = await lockLocalD1(copy.state, {
        database: 'departures-board',
        workerConfig: path.join(copy.dir, 'server/wrangler.json'),
      });
      const lockedAt = Date.now();
      try {
        for (const power of everySwitch()) power.releaseHeld({ status: 503, body: 'down' });
        await runCron(2);
        await runCron(3);
        await eventually(
          () => server.output().includes('message reached the dead-letter queue'),
          'a deliver message in the dead-letter queue',
          LOCK_MS,
        );
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, LOCK_MS - (Date.now() - lockedAt))));
      } finally {
        await lock.release();
      }
      expect(Date.now() - lockedAt).toBeGreaterThan(60_000);
      for (const subscriber of SUBSCRIBERS_BEFORE) expect(acceptedBy(subscriber), subscriber).toEqual([]);

      // The receivers stay down (503) for three hours of the cron's clock: every run queues what is due again.
      const down = minuteAfterEveryHold();
      const recovered = down + DOWN_MINUTES + 1;
      // The last run below must come before the second transition, which the next test expects.
      expect(recovered + 60, 'the setup took so long that the three hours reach the effective time').toBeLessThan(
        EFFECTIVE_MINUTE,
      );
      for (let minute = down; minute < recovered; minute += 15) {
        await runCron(minute);
        await settled();
      }
      for (const subscriber of SUBSCRIBERS_BEFORE) expect(acceptedBy(subscriber), subscriber).toEqual([]);
      const attempts = await queryLocalD1(
        copy.state,
        `SELECT MIN(attempts) AS least FROM deliveries WHERE event_id = '${EVENT_ID}'`,
      );
      expect(Number(attempts[0]?.['least'])).toBeGreaterThan(3);

      // They recover: the next runs at or after each retry's due time deliver, once each.
      for (const power of everySwitch()) await power.up();
      await runCron(recovered);
      await runCron(recovered + 60);
      await eventually(
        () => SUBSCRIBERS_BEFORE.every((subscriber) => acceptedBy(subscriber).length > 0),
        () =>
          `accepted: ${SUBSCRIBERS_BEFORE.map((subscriber) => `${subscriber} ${acceptedBy(subscriber).length}`).join(', ')}`,
      );
      await settled();
      for (const subscriber of SUBSCRIBERS_BEFORE)
        expect(acceptedBy(subscriber), subscriber).toEqual([`${EVENT_ID}/announced`]);
    },
    scaled(600_000),
  );

  it('sends nothing to removed subscribers, never hands their ids on, and the next transition once to the others', async () => {
    const idsBefore = await queryLocalD1(copy.state, 'SELECT MAX(id) AS highest FROM subscribers');
    expect(
      (await write('/api/push/subscriptions', 'DELETE', { endpoint: `${push.origin}${PUSH_REMOVED}` })).status,
    ).toBe(204);
    expect((await write('/api/webhooks', 'DELETE', { url: `${chat.origin}${DISCORD_REMOVED}` })).status).toBe(204);
    // Newcomers of another provider: a delivery meant for a removed subscriber must never reach them.
    await subscribePush(NEWCOMERS[0]!.slice(1), ['provider_b']);
    await connectWebhook(NEWCOMERS[1]!, ['provider_b']);
    const newIds = await queryLocalD1(
      copy.state,
      `SELECT id FROM subscribers WHERE address IN ('${push.origin}${NEWCOMERS[0]}', '${chat.origin}${NEWCOMERS[1]}')`,
    );
    for (const row of newIds) expect(Number(row['id'])).toBeGreaterThan(Number(idsBefore[0]?.['highest']));

    await runCron(EFFECTIVE_MINUTE);
    await runCron(EFFECTIVE_MINUTE + 1);
    const kept = SUBSCRIBERS_BEFORE.filter(
      (subscriber) => subscriber !== PUSH_REMOVED && subscriber !== DISCORD_REMOVED,
    );
    await eventually(
      () => kept.every((subscriber) => acceptedBy(subscriber).length === 2),
      () => `accepted: ${kept.map((subscriber) => `${subscriber} ${acceptedBy(subscriber).length}`).join(', ')}`,
    );
    await settled();
    for (const subscriber of kept)
      expect(acceptedBy(subscriber).sort(), subscriber).toEqual([`${EVENT_ID}/announced`, `${EVENT_ID}/effective`]);
    for (const removed of [PUSH_REMOVED, DISCORD_REMOVED])
      expect(acceptedBy(removed), removed).toEqual([`${EVENT_ID}/announced`]);
    expect(push.received.filter((item) => item.path === NEWCOMERS[0])).toEqual([]);
    expect(chatEvents(NEWCOMERS[1]!)).toEqual([]);
  });
});
