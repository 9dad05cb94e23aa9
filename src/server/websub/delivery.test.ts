import { beforeEach, describe, expect, it } from 'vitest';
import { assetsBinding, fixtureFiles } from '../../../scripts/lib/built-files.ts';
import { deliveryFixture } from '../../../tests/support/delivery-fixture.ts';
import { minutesFrom } from '../../../tests/support/minutes-from.ts';
import { REAL_D1 } from '../../../tests/support/push-d1.ts';
import { startWebSubSubscriber, type WebSubSubscriber } from '../../../tests/support/websub-subscriber.ts';
import type { Event } from '../../core/schemas.ts';
import { makeEvent, NOW } from '../../core/test-events.ts';
import { BASE_URL } from '../base-url.ts';
import { dispatchDue } from '../push/dispatch.ts';
import { deliver, fanOut, verify, type WebSubConsumerBindings } from './consumer.ts';
import type { WebSubDeliverMessage, WebSubQueueMessage, WebSubVerifyMessage } from './messages.ts';
import { pruneWebSub } from './store.ts';

/**
 * The hub's consumer against a real local D1 (Miniflare) and the W3C-text subscriber on loopback
 * (tests/support/websub-subscriber.ts); the queue is a recorder the test hands to the consumer message by message
 * (tests/websub.test.ts runs the real queue and cron in workerd). The built files are the core's, made from a
 * fixture: what each delivery must carry is read from them, byte for byte. Outside Astro, `{base_url}` is
 * http://localhost:4321.
 */

const DAY_MS = 86_400_000;
const topic = (path: string) => `${BASE_URL}${path}`;

const fixture = deliveryFixture<WebSubSubscriber, WebSubQueueMessage>({ receiver: startWebSubSubscriber });
let published: Event[];

const files = () => fixtureFiles(published, NOW);
const assets = { fetch: (input: RequestInfo | URL, init?: RequestInit) => assetsBinding(files()).fetch(input, init) };
/** Push's own queue: its fan-outs are push's business (src/server/push/delivery.test.ts). */
const pushQueue = { sendBatch: async () => undefined };
const env = (): WebSubConsumerBindings => ({ ASSETS: assets, PUSH_DB: fixture.db, WEBSUB_QUEUE: fixture.queued.queue });
const settings = { baseUrl: BASE_URL, allowLoopbackReceiver: true };
const take = () => fixture.queued.take().map(({ body }) => body);

/** What the consumer does with each recorded message and what they enqueue in turn, until none is left. */
async function drain(now = NOW): Promise<void> {
  for (let messages = take(); messages.length > 0; messages = take())
    for (const message of messages) {
      if (message.type === 'websub-verify') await verify(env(), message, settings, () => now);
      else if (message.type === 'websub-fanout') await fanOut(env(), message, now);
      else await deliver(env(), message, settings, now);
    }
}

let sequence = 0;
/** A subscription made as the hub makes it: the subscriber asks (its pending intent), the consumer verifies. */
async function subscribed(path: string, options: { secret?: string; leaseSeconds?: number } = {}) {
  sequence += 1;
  const callbackPath = `/cb/${sequence}`;
  const message: WebSubVerifyMessage = {
    type: 'websub-verify',
    mode: 'subscribe',
    topic: topic(path),
    callback: `${fixture.receiver.origin}${callbackPath}`,
    leaseSeconds: options.leaseSeconds ?? 864000,
    secret: options.secret ?? null,
  };
  // What the subscriber does before it POSTs (the hub's answer to the POST is tests/websub.test.ts's).
  fixture.receiver.intend('subscribe', message.topic, callbackPath, options);
  expect(await verify(env(), message, settings, () => NOW)).toBe(true);
  const row = await fixture.db
    .prepare('SELECT id FROM websub_subscriptions WHERE topic = ?1 AND callback = ?2')
    .bind(message.topic, message.callback)
    .first<{ id: number }>();
  return { path: callbackPath, message, id: row!.id };
}

const rows = async () =>
  (
    await fixture.db
      .prepare('SELECT topic, callback, secret, expires_at, failing_since FROM websub_subscriptions ORDER BY id')
      .all()
  ).results;

const builtFeed = (path: string) => Buffer.from(files().get(path)!);

beforeEach(() => {
  published = [makeEvent({ id: 'old-1', provider: 'provider_b', announcedAt: minutesFrom(-3000).toISOString() })];
});

describe('verification of intent (WebSub §5.3)', REAL_D1, () => {
  it('subscribes once the callback echoes the challenge; the lease counts from the GET', async () => {
    const { path, message } = await subscribed('/feed.xml?provider=provider_a', {
      secret: 's3cret',
      leaseSeconds: 3600,
    });
    const [verification] = fixture.receiver.verifications;
    expect(verification).toMatchObject({
      path,
      mode: 'subscribe',
      topic: `${BASE_URL}/feed.xml?provider=provider_a`,
      leaseSeconds: '3600',
      confirmed: true,
    });
    expect(verification!.challenge!.length).toBeGreaterThanOrEqual(32);
    expect(await rows()).toEqual([
      {
        topic: `${BASE_URL}/feed.xml?provider=provider_a`,
        callback: message.callback,
        secret: 's3cret',
        expires_at: '2026-06-15T13:00:00.000Z',
        failing_since: null,
      },
    ]);
  });

  it('keeps the callback’s own query and appends the hub’s parameters after it', async () => {
    const urls: string[] = [];
    const fetcher = (async (url: string) => {
      urls.push(url);
      return new Response('nope', { status: 404 });
    }) as unknown as typeof fetch;
    const message: WebSubVerifyMessage = {
      type: 'websub-verify',
      mode: 'unsubscribe',
      topic: topic('/feed.json'),
      callback: 'https://reader.example/cb?user=7&x=a%20b',
      leaseSeconds: 864000,
      secret: null,
    };
    expect(await verify(env(), message, { ...settings, fetcher }, () => NOW)).toBe(false);
    const url = new URL(urls[0]!);
    expect(urls[0]!.startsWith('https://reader.example/cb?user=7&x=a%20b&hub.mode=unsubscribe&')).toBe(true);
    expect([...url.searchParams.keys()]).toEqual(['user', 'x', 'hub.mode', 'hub.topic', 'hub.challenge']);
    expect(url.searchParams.get('hub.topic')).toBe(`${BASE_URL}/feed.json`);
  });

  it.each([
    ['a 404 (the subscriber never asked)', () => new Response('x', { status: 404 })],
    ['another body', () => new Response('not the challenge')],
    ['the challenge with a newline', (challenge: string) => new Response(`${challenge}\n`)],
    ['a redirect', () => new Response(null, { status: 302, headers: { Location: 'https://elsewhere.example/' } })],
    ['no answer', () => Promise.reject(new TypeError('fetch failed'))],
  ])('makes nothing when the callback answers %s', async (_name, answer) => {
    const fetcher = (async (url: string) =>
      answer(new URL(url).searchParams.get('hub.challenge')!)) as unknown as typeof fetch;
    const message: WebSubVerifyMessage = {
      type: 'websub-verify',
      mode: 'subscribe',
      topic: topic('/feed.xml'),
      callback: 'https://reader.example/cb',
      leaseSeconds: 60,
      secret: null,
    };
    expect(await verify(env(), message, { ...settings, fetcher }, () => NOW)).toBe(false);
    expect(await rows()).toEqual([]);
  });

  it('renews a subscription in place (new secret and lease), and unsubscribes only when the callback confirms', async () => {
    const first = await subscribed('/feed.atom', { secret: 'one' });
    const renewal: WebSubVerifyMessage = { ...first.message, secret: 'two', leaseSeconds: 120 };
    fixture.receiver.intend('subscribe', renewal.topic, first.path, { secret: 'two' });
    expect(await verify(env(), renewal, settings, () => minutesFrom(10))).toBe(true);
    expect(await rows()).toMatchObject([{ secret: 'two', expires_at: '2026-06-15T12:12:00.000Z' }]);

    const unsubscribe: WebSubVerifyMessage = { ...first.message, mode: 'unsubscribe' };
    // Not asked for by the subscriber: refused, the subscription stays.
    expect(await verify(env(), unsubscribe, settings, () => NOW)).toBe(false);
    expect(await rows()).toHaveLength(1);
    fixture.receiver.intend('unsubscribe', unsubscribe.topic, first.path);
    expect(await verify(env(), unsubscribe, settings, () => NOW)).toBe(true);
    expect(fixture.receiver.verifications.at(-1)).toMatchObject({ mode: 'unsubscribe', leaseSeconds: null });
    expect(await rows()).toEqual([]);
  });

  it('never calls a callback the outbound-address rules refuse (the loopback setting off)', async () => {
    const { message } = await subscribed('/feed.xml');
    const before = fixture.receiver.verifications.length;
    expect(await verify(env(), message, { ...settings, allowLoopbackReceiver: false }, () => NOW)).toBe(false);
    expect(fixture.receiver.verifications).toHaveLength(before);
  });
});

describe('content distribution (WebSub §7)', REAL_D1, () => {
  it('a dispatch run’s new event reaches the changed topics’ subscribers once, signed when they gave a secret', async () => {
    const signed = await subscribed('/feed.xml?provider=provider_b', { secret: 'k€y' });
    const plain = await subscribed('/feed.json');
    const other = await subscribed('/feed.atom?provider=provider_a', { secret: 'x' });
    // The first dispatch meets the history: nothing for WebSub either.
    expect(
      await dispatchDue(
        { ASSETS: assets, PUSH_DB: fixture.db, PUSH_QUEUE: pushQueue, WEBSUB_QUEUE: fixture.queued.queue },
        NOW,
      ),
    ).toMatchObject({ suppressed: 1 });
    expect(fixture.queued.sent).toEqual([]);

    published.unshift(makeEvent({ id: 'new-b', provider: 'provider_b', announcedAt: minutesFrom(-1).toISOString() }));
    await dispatchDue(
      { ASSETS: assets, PUSH_DB: fixture.db, PUSH_QUEUE: pushQueue, WEBSUB_QUEUE: fixture.queued.queue },
      minutesFrom(1),
    );
    expect(fixture.queued.sent.map(({ body }) => body)).toEqual([
      {
        type: 'websub-fanout',
        change: 'new-b/announced',
        topics: [
          `${BASE_URL}/feed.xml`,
          `${BASE_URL}/feed.xml?provider=provider_b`,
          `${BASE_URL}/feed.atom`,
          `${BASE_URL}/feed.atom?provider=provider_b`,
          `${BASE_URL}/feed.json`,
          `${BASE_URL}/feed.json?provider=provider_b`,
        ],
        afterId: 0,
      },
    ]);
    await drain(minutesFrom(1));

    const [toSigned] = fixture.receiver.deliveries.filter((delivery) => delivery.path === signed.path);
    expect(toSigned!.body.equals(builtFeed('/data/feeds/provider_b.xml'))).toBe(true);
    expect(toSigned!.body.toString()).toContain('#event-new-b');
    expect(toSigned!.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(toSigned!.headers['link']).toBe(
      `<${BASE_URL}/websub>; rel="hub", <${BASE_URL}/feed.xml?provider=provider_b>; rel="self"`,
    );
    expect(toSigned!.signature).toBe('valid');
    expect(toSigned!.headers['x-hub-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);

    const [toPlain] = fixture.receiver.deliveries.filter((delivery) => delivery.path === plain.path);
    expect(toPlain!.body.equals(builtFeed('/feed.json'))).toBe(true);
    expect(toPlain!.headers['content-type']).toBe('application/feed+json; charset=utf-8');
    expect(toPlain!.signature).toBe('absent');
    expect(fixture.receiver.deliveries.filter((delivery) => delivery.path === other.path)).toEqual([]);
    expect(fixture.receiver.deliveries).toHaveLength(2);
  });

  it('sends a change once, whatever the queue redelivers', async () => {
    const { id, path } = await subscribed('/feed.xml');
    const message: WebSubDeliverMessage = { type: 'websub-deliver', change: 'c1', subscriptionIds: [id], attempt: 1 };
    await deliver(env(), message, settings, NOW);
    await deliver(env(), message, settings, NOW);
    expect(fixture.receiver.deliveries.filter((delivery) => delivery.path === path)).toHaveLength(1);
    await deliver(env(), { ...message, change: 'c2' }, settings, NOW);
    expect(fixture.receiver.deliveries.filter((delivery) => delivery.path === path)).toHaveLength(2);
  });

  it('tries a refused delivery again with backoff (the callback’s Retry-After, else 30 s doubling), then delivers', async () => {
    const limited = await subscribed('/feed.xml');
    const failing = await subscribed('/feed.xml');
    fixture.receiver.answerNext(limited.path, { status: 429, headers: { 'Retry-After': '7' } });
    fixture.receiver.answerNext(failing.path, { status: 500 }, { status: 400 });
    const ids = [limited.id, failing.id];
    await deliver(env(), { type: 'websub-deliver', change: 'c', subscriptionIds: ids, attempt: 1 }, settings, NOW);
    expect(fixture.queued.sent).toEqual([
      {
        body: { type: 'websub-deliver', change: 'c', subscriptionIds: ids, attempt: 2 },
        delaySeconds: 7,
      },
    ]);
    expect((await rows()).map((row) => row['failing_since'])).toEqual([NOW.toISOString(), NOW.toISOString()]);
    await deliver(env(), take()[0] as WebSubDeliverMessage, settings, minutesFrom(1));
    expect(fixture.queued.sent).toEqual([
      {
        body: { type: 'websub-deliver', change: 'c', subscriptionIds: [failing.id], attempt: 3 },
        delaySeconds: 60,
      },
    ]);
    await deliver(env(), take()[0] as WebSubDeliverMessage, settings, minutesFrom(2));
    expect(fixture.queued.sent).toEqual([]);
    expect(fixture.receiver.deliveries.map((delivery) => [delivery.path, delivery.status])).toEqual([
      [limited.path, 429],
      [failing.path, 500],
      [limited.path, 200],
      [failing.path, 400],
      [failing.path, 200],
    ]);
    expect((await rows()).map((row) => row['failing_since'])).toEqual([null, null]);
  });

  it('gives up a change after push’s number of tries', async () => {
    const { id, path } = await subscribed('/feed.xml');
    fixture.receiver.answerNext(path, { status: 503 });
    await deliver(env(), { type: 'websub-deliver', change: 'c', subscriptionIds: [id], attempt: 8 }, settings, NOW);
    expect(fixture.queued.sent).toEqual([]);
    expect(await rows()).toMatchObject([{ failing_since: NOW.toISOString() }]);
  });

  it('drops a subscription whose callback answers 410, or that has failed for 7 days', async () => {
    const gone = await subscribed('/feed.xml');
    const failing = await subscribed('/feed.atom');
    fixture.receiver.answerNext(gone.path, { status: 410 });
    fixture.receiver.answerNext(failing.path, { status: 500 }, { status: 500 });
    await deliver(
      env(),
      { type: 'websub-deliver', change: 'a', subscriptionIds: [gone.id, failing.id], attempt: 1 },
      settings,
      NOW,
    );
    expect((await rows()).map((row) => row['topic'])).toEqual([`${BASE_URL}/feed.atom`]);
    take();
    await deliver(
      env(),
      { type: 'websub-deliver', change: 'b', subscriptionIds: [failing.id], attempt: 1 },
      settings,
      new Date(NOW.getTime() + 7 * DAY_MS),
    );
    expect(await rows()).toEqual([]);
  });

  it('sends nothing past a lease: the fan-out skips it, the delivery drops it, the minute’s prune deletes it', async () => {
    const short = await subscribed('/feed.xml', { leaseSeconds: 60 });
    const long = await subscribed('/feed.xml');
    await fanOut(
      env(),
      { type: 'websub-fanout', change: 'c', topics: [topic('/feed.xml')], afterId: 0 },
      minutesFrom(2),
    );
    expect(take()).toEqual([{ type: 'websub-deliver', change: 'c', subscriptionIds: [long.id], attempt: 1 }]);
    await deliver(
      env(),
      { type: 'websub-deliver', change: 'c', subscriptionIds: [short.id], attempt: 1 },
      settings,
      minutesFrom(2),
    );
    expect(fixture.receiver.deliveries).toEqual([]);
    expect((await rows()).map((row) => row['expires_at'])).toEqual(['2026-06-25T12:00:00.000Z']);
    await subscribed('/feed.atom', { leaseSeconds: 60 });
    await pruneWebSub(fixture.db, minutesFrom(1));
    expect((await rows()).map((row) => row['callback'])).toEqual([long.message.callback]);
  });

  it('claims nothing when the built feed cannot be read: the queue retries the message', async () => {
    const { id } = await subscribed('/feed.xml');
    const broken = { ...env(), ASSETS: { fetch: async () => new Response('gone', { status: 404 }) } };
    await expect(
      deliver(broken, { type: 'websub-deliver', change: 'c', subscriptionIds: [id], attempt: 1 }, settings, NOW),
    ).rejects.toThrow(/answered 404/);
    expect((await fixture.db.prepare('SELECT COUNT(*) AS n FROM websub_deliveries').first<{ n: number }>())!.n).toBe(0);
  });
});
