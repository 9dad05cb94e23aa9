import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { queryLocalD1 } from '../scripts/lib/local-d1.ts';
import type { RunningServer } from '../scripts/lib/local-server.ts';
import { uniqueClientIp } from './support/client-ip.ts';
import {
  createSubscriberKeys,
  decryptPush,
  startPushReceiver,
  verifyVapid,
  type PushReceiver,
  type ReceivedPush,
  type SubscriberKeys,
} from './support/push-receiver.ts';
import {
  copyServedBuild,
  eventually,
  MINUTE_MS,
  minuteOf,
  publishedReset,
  publishInCopy,
  runCron as runCronAt,
  runCronAhead,
  type ServedCopy,
} from './support/served-delivery.ts';
import { scaled } from '../scripts/lib/load-scaled.ts';

/**
 * Push end to end in workerd: a copy of the build is served with the loopback receiver allowed; subscribers
 * subscribe over HTTP; the first cron run meets the history. Then two resets are published by adding them to
 * the copy's data set (what a new build does; `wrangler dev` reloads on a changed asset and would drop queued
 * messages, so the server is restarted on the same state, as a deploy would). The cron runs
 * (`/cdn-cgi/local/scheduled`), the real local queue fans out and its consumer sends to a receiver on
 * loopback; pushes are decrypted with http_ece and their VAPID JWT verified by jose against /api/push/key.
 *
 * The cron is handed its clock: each run names its minute (`time=`, which becomes the handler's
 * `controller.scheduledTime`, as a real cron's minute does), and the published resets are placed relative to
 * the minute this file started in. So the reset that takes effect an hour later is sent when the cron of that
 * later minute runs, at once, on any date.
 */

const builtBaseUrl = inject('baseUrl');
let copy: ServedCopy;
let server: RunningServer;
let receiver: PushReceiver;
let publicKey: string;

interface Subscriber {
  path: string;
  keys: SubscriberKeys;
}

async function subscribe(name: string, locale: 'en' | 'zh'): Promise<Subscriber> {
  const keys = createSubscriberKeys();
  const response = await fetch(`${server.baseUrl}/api/push/subscriptions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': uniqueClientIp() },
    body: JSON.stringify({
      subscription: { endpoint: `${receiver.origin}/${name}`, keys: { p256dh: keys.p256dh, auth: keys.auth } },
      providers: ['provider_a'],
      kinds: ['reset'],
      locale,
    }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return { path: `/${name}`, keys };
}

/** The minute this file started in: the cron's first run, and what every time below is counted from. */
let startMinute: Date;
const minutesAfterStart = (minutes: number) => new Date(startMinute.getTime() + minutes * MINUTE_MS);

/** The cron at the minute `at` (`/__scheduled` reaches the worker's assets; served-delivery.ts uses workerd's route). */
const runCron = (at: Date) => runCronAt(server, at);

/** The dispatcher's claims of the published resets in the server's D1: "event/transition" and the minute found. */
const claims = async () =>
  (
    await queryLocalD1(
      copy.state,
      `SELECT event_id, transition, found_at FROM notifications WHERE event_id LIKE 'e2e-%' ORDER BY 1, 2`,
    )
  ).map((row) => `${String(row['event_id'])}/${String(row['transition'])} at ${String(row['found_at'])}`);

/** A reset announced five minutes before the start. */
const reset = (id: string, effectiveAt: Date | null) => publishedReset(id, minutesAfterStart(-5), effectiveAt);

interface Payload {
  eventId: string;
  transition: string;
  [field: string]: unknown;
}
const payloadOf = (push: ReceivedPush, subscriber: Subscriber): Payload =>
  JSON.parse(decryptPush(push, subscriber.keys)) as Payload;
/** "event/transition" of each push the receiver accepted (2xx) for `subscriber`. */
const accepted = (subscriber: Subscriber) =>
  receiver.received
    .filter((push) => push.path === subscriber.path && push.status < 300)
    .map((push) => {
      const { eventId, transition } = payloadOf(push, subscriber);
      return `${eventId}/${transition}`;
    })
    .sort();

/** Resolves once the receiver has accepted `item` ("event/transition") for `subscriber`. */
const acceptedEventually = (subscriber: Subscriber, item: string) =>
  eventually(() => accepted(subscriber).includes(item), `${subscriber.path} accepted ${item}`);

let english: Subscriber;
let chinese: Subscriber;
let gone: Subscriber;
let limited: Subscriber;
let failing: Subscriber;
/** When the later reset takes effect: an hour after the start, far from any minute the other runs name. */
let effectiveAt: Date;

beforeAll(async () => {
  startMinute = minuteOf(new Date());
  effectiveAt = minutesAfterStart(60);
  receiver = await startPushReceiver();
  copy = await copyServedBuild('push');

  server = await copy.serve();
  publicKey = ((await (await fetch(`${server.baseUrl}/api/push/key`)).json()) as { publicKey: string }).publicKey;
  english = await subscribe('english', 'en');
  chinese = await subscribe('chinese', 'zh');
  gone = await subscribe('gone', 'en');
  limited = await subscribe('limited', 'en');
  failing = await subscribe('failing', 'en');
  // The first dispatch meets the fixture's history.
  await runCron(startMinute);
  await server.stop();

  // Published: a reset in effect when announced, and one announced with it that takes effect an hour later.
  await publishInCopy(copy, reset('e2e-now', null), reset('e2e-later', effectiveAt));
  receiver.answerNext(gone.path, { status: 410 }, { status: 410 }, { status: 410 });
  receiver.answerNext(limited.path, { status: 429, headers: { 'retry-after': '1' } });
  receiver.answerNext(failing.path, { status: 503, headers: { 'retry-after': '1' } });
  server = await copy.serve();
}, scaled(240_000));

afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  await copy?.remove();
});

describe('push, from a published event to a push received', () => {
  it('delivers each new event once in the subscriber’s language, decryptable and VAPID-signed; none of the history', async () => {
    await runCron(minutesAfterStart(1));
    await runCron(minutesAfterStart(2));
    // Claimed by the first of the two runs, at the minute it was handed: not the effective transition yet.
    const found = minutesAfterStart(1).toISOString();
    expect(await claims()).toEqual([`e2e-later/announced at ${found}`, `e2e-now/announced at ${found}`]);
    const [englishNow] = (await receiver.waitFor(2, english.path)).filter(
      (push) => payloadOf(push, english).eventId === 'e2e-now',
    );
    const [chineseNow] = (await receiver.waitFor(2, chinese.path)).filter(
      (push) => payloadOf(push, chinese).eventId === 'e2e-now',
    );
    for (const push of [englishNow!, chineseNow!]) {
      expect(push.headers['content-encoding']).toBe('aes128gcm');
      expect(push.headers['ttl']).toBe('86400');
      expect(push.headers['urgency']).toBe('high');
      const claims = await verifyVapid(push, publicKey, receiver.origin.replace('http:', 'https:'));
      expect(claims.exp! * 1000).toBeGreaterThan(Date.now());
    }
    const common = {
      body: 'Limits reset for everyone (e2e-now).',
      url: `${builtBaseUrl}/provider_a#event-e2e-now`,
      tag: 'provider_a-reset',
      eventId: 'e2e-now',
      provider: 'provider_a',
      kind: 'reset',
      transition: 'announced',
    };
    expect(payloadOf(englishNow!, english)).toStrictEqual({ title: 'Provider A: Reset', ...common });
    expect(payloadOf(chineseNow!, chinese)).toStrictEqual({ title: '供应商 A：重置', ...common });
    expect(accepted(english)).toEqual(['e2e-later/announced', 'e2e-now/announced']);
    expect(accepted(chinese)).toEqual(['e2e-later/announced', 'e2e-now/announced']);
  });

  it('tries a 429 and a 503 again after their Retry-After, until delivered', async () => {
    for (const subscriber of [limited, failing]) {
      await receiver.waitFor(3, subscriber.path);
      const refused = receiver.received.filter((push) => push.path === subscriber.path && push.status >= 300);
      expect(refused).toHaveLength(1);
      expect(accepted(subscriber)).toEqual(['e2e-later/announced', 'e2e-now/announced']);
    }
  });

  it('sends the effective reset when its time comes, once, and never again to the endpoint that answered 410', async () => {
    const announced = minutesAfterStart(1).toISOString();
    // The minute before: not yet.
    await runCronAhead(copy, server, minutesAfterStart(59));
    expect(await claims()).toEqual([`e2e-later/announced at ${announced}`, `e2e-now/announced at ${announced}`]);
    // The minute it takes effect, and the next one, which finds nothing new.
    await runCron(effectiveAt);
    await runCron(minutesAfterStart(61));
    expect(await claims()).toEqual([
      `e2e-later/announced at ${announced}`,
      `e2e-later/effective at ${effectiveAt.toISOString()}`,
      `e2e-now/announced at ${announced}`,
    ]);
    const [effective] = (await receiver.waitFor(3, english.path)).filter(
      (push) => payloadOf(push, english).transition === 'effective',
    );
    expect(payloadOf(effective!, english)).toMatchObject({
      title: 'Provider A: Reset now',
      eventId: 'e2e-later',
      transition: 'effective',
    });
    for (const subscriber of [english, chinese, limited, failing])
      await acceptedEventually(subscriber, 'e2e-later/effective');
    for (const subscriber of [english, chinese, limited, failing])
      expect(accepted(subscriber)).toEqual(['e2e-later/announced', 'e2e-later/effective', 'e2e-now/announced']);
    const toGone = receiver.received.filter((push) => push.path === gone.path);
    expect(toGone.every((push) => push.status === 410)).toBe(true);
    expect(toGone.map((push) => payloadOf(push, gone).transition)).not.toContain('effective');
    // Nothing of the history reached anyone.
    const sentEvents = receiver.received.map((push) => {
      const subscriber = [english, chinese, gone, limited, failing].find((candidate) => candidate.path === push.path)!;
      return payloadOf(push, subscriber).eventId;
    });
    expect(new Set(sentEvents)).toEqual(new Set(['e2e-now', 'e2e-later']));
  });
});
