import { afterEach, describe, expect, it, vi } from 'vitest';
import { edgeApp } from '../../../scripts/lib/edge-app.ts';
import { at, deliveryWing, T0 } from '../../../tests/support/delivery-wing.ts';
import { REAL_D1 } from '../../../tests/support/state-d1.ts';
import { makeEvent } from '../../core/test-events.ts';
import { BASE_URL } from '../base-url.ts';
import { dispatchDue } from './dispatch.ts';
import type { VerifyMessage } from './messages.ts';

/**
 * WebSub as a channel of the delivery wing (W3C Recommendation, §5.1 to §7): the hub's form through the edge, the
 * verification of intent from the delivery queue, and what it stores, over a real local D1 and the subscriber of
 * tests/support/websub-subscriber.ts (written from the Recommendation, not from the hub's code). Outside Astro,
 * `{base_url}` is http://localhost:4321. The content distribution itself: wing-dispatch.test.ts and wing-retries.
 */

const wing = deliveryWing();
afterEach(() => vi.restoreAllMocks());

const topic = (path: string) => `${BASE_URL}${path}`;
const DAY_S = 24 * 60 * 60;

/** The hub's `verify` message for a request, as `POST /websub` queues it, made at `now`. */
const verifyMessage = (
  request: {
    mode?: 'subscribe' | 'unsubscribe';
    topic: string;
    callback: string;
    leaseSeconds?: number;
    secret?: string | null;
  },
  now = T0,
): VerifyMessage => ({
  type: 'verify',
  channel: 'websub',
  request: { mode: 'subscribe', leaseSeconds: 10 * DAY_S, secret: null, ...request },
  at: now.toISOString(),
});

interface StoredRow {
  id: number;
  key: string;
  address: string;
  locale: string | null;
  data: string;
  expires_at: string | null;
}
const stored = () =>
  wing.rows<StoredRow>(
    "SELECT id, key, address, locale, data, expires_at FROM subscribers WHERE channel = 'websub' ORDER BY id",
  );
const topicsOf = (id: number) =>
  wing.rows<{ topic: string }>('SELECT topic FROM subscriber_topics WHERE subscriber_id = ?1', id);

let sequence = 0;
/** A callback path of its own on the subscriber, and its full URL. */
const callback = () => {
  sequence += 1;
  const path = `/verify/${sequence}`;
  return { path, url: `${wing.websub.origin}${path}` };
};

describe('a subscription, from the form to the first delivery', REAL_D1, () => {
  it('answers the form 202, verifies intent from the queue, stores the subscription, and delivers the next change to it', async () => {
    const { path, url } = callback();
    const app = edgeApp(wing.files(), { push: wing.env() });
    const feed = topic('/feed.xml?provider=provider_a');
    wing.websub.intend('subscribe', feed, path, { secret: 's3cret' });
    const form = new URLSearchParams({
      'hub.mode': 'subscribe',
      'hub.topic': feed,
      'hub.callback': url,
      'hub.secret': 's3cret',
      'hub.lease_seconds': String(DAY_S),
    });
    const response = await app.request(
      '/websub',
      { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: form.toString() },
      T0,
    );
    expect(response?.status).toBe(202);
    // Nothing is stored before the callback confirms (§5.3).
    expect(await stored()).toEqual([]);
    expect(await wing.drain()).toEqual([]);
    expect(wing.websub.active(path)).toEqual({ topic: feed, leaseSeconds: DAY_S, secret: 's3cret' });
    const [row] = await stored();
    expect(row).toMatchObject({
      key: `${feed} ${url}`,
      address: url,
      expires_at: new Date(T0.getTime() + DAY_S * 1000).toISOString(),
    });

    wing.published = [makeEvent({ id: 'history', announcedAt: at(-3000).toISOString() })];
    await dispatchDue(wing.env(), at(1));
    wing.published.push(makeEvent({ id: 'news', provider: 'provider_a', announcedAt: at(-1).toISOString() }));
    expect(await dispatchDue(wing.env(), at(2))).toMatchObject({ enqueued: 1 });
    expect(await wing.drain()).toEqual([]);
    expect(wing.websub.deliveries.map(({ path: to, signature }) => [to, signature])).toEqual([[path, 'valid']]);
  });
});

describe('verification of intent (§5.3)', REAL_D1, () => {
  it('subscribes once the callback echoes the challenge; the lease counts from the GET, at the message’s clock', async () => {
    const { path, url } = callback();
    const feed = topic('/feed.atom');
    wing.websub.intend('subscribe', feed, path, { secret: 'k' });
    expect(
      await wing.handle([verifyMessage({ topic: feed, callback: url, leaseSeconds: 3600, secret: 'k' }, at(7))]),
    ).toEqual([]);
    const [verification] = wing.websub.verifications;
    expect(verification).toMatchObject({ path, mode: 'subscribe', topic: feed, leaseSeconds: '3600', confirmed: true });
    expect(verification!.challenge!.length).toBeGreaterThanOrEqual(32);
    const rows = await stored();
    expect(rows).toEqual([
      {
        id: 1,
        key: `${feed} ${url}`,
        address: url,
        locale: null,
        data: expect.any(String),
        expires_at: new Date(at(7).getTime() + 3600 * 1000).toISOString(),
      },
    ]);
    expect(JSON.parse(rows[0]!.data)).toEqual({ topic: feed, secret: 'k' });
    expect(await topicsOf(1)).toEqual([{ topic: feed }]);
  });

  it('keeps the callback’s own query and appends the hub’s parameters after it', async () => {
    const urls: string[] = [];
    const fetcher = (async (url: string) => {
      urls.push(url);
      return new Response('nope', { status: 404 });
    }) as unknown as typeof fetch;
    const message = verifyMessage({
      mode: 'unsubscribe',
      topic: topic('/feed.json'),
      callback: 'https://reader.example/cb?user=7&x=a%20b',
    });
    expect(await wing.handle([message], { fetcher })).toEqual([]);
    expect(urls[0]!.startsWith('https://reader.example/cb?user=7&x=a%20b&hub.mode=unsubscribe&')).toBe(true);
    const url = new URL(urls[0]!);
    // No hub.lease_seconds to unsubscribe: §5.3 asks for it when subscribing only.
    expect([...url.searchParams.keys()]).toEqual(['user', 'x', 'hub.mode', 'hub.topic', 'hub.challenge']);
    expect(url.searchParams.get('hub.topic')).toBe(topic('/feed.json'));
  });

  it.each([
    ['a 404 (the subscriber never asked)', () => new Response('x', { status: 404 })],
    ['another body', () => new Response('not the challenge')],
    ['the challenge with a newline', (challenge: string) => new Response(`${challenge}\n`)],
    ['a redirect', () => new Response(null, { status: 302, headers: { Location: 'https://elsewhere.example/' } })],
    ['no answer', () => Promise.reject(new TypeError('fetch failed'))],
  ])('stores nothing when the callback answers %s', async (_name, answer) => {
    const fetcher = (async (url: string) =>
      answer(new URL(url).searchParams.get('hub.challenge')!)) as unknown as typeof fetch;
    const message = verifyMessage({
      topic: topic('/feed.xml'),
      callback: 'https://reader.example/cb',
      leaseSeconds: 60,
    });
    expect(await wing.handle([message], { fetcher })).toEqual([]);
    expect(await stored()).toEqual([]);
  });

  it('renews a subscription in place (its id, a new secret and lease), and unsubscribes only when the callback confirms', async () => {
    const { path, url } = callback();
    const feed = topic('/feed.atom?provider=provider_b');
    wing.websub.intend('subscribe', feed, path, { secret: 'one' });
    await wing.handle([verifyMessage({ topic: feed, callback: url, secret: 'one' })]);
    wing.websub.intend('subscribe', feed, path, { secret: 'two' });
    await wing.handle([verifyMessage({ topic: feed, callback: url, secret: 'two', leaseSeconds: 120 }, at(10))]);
    const [renewed, ...others] = await stored();
    expect(others).toEqual([]);
    expect(renewed).toMatchObject({ id: 1, expires_at: at(12).toISOString() });
    expect(JSON.parse(renewed!.data)).toEqual({ topic: feed, secret: 'two' });

    // Not asked for by the subscriber: refused, the subscription stays.
    const leave = verifyMessage({ mode: 'unsubscribe', topic: feed, callback: url }, at(20));
    await wing.handle([leave]);
    expect(await stored()).toHaveLength(1);
    wing.websub.intend('unsubscribe', feed, path);
    await wing.handle([leave]);
    expect(wing.websub.verifications.at(-1)).toMatchObject({
      mode: 'unsubscribe',
      leaseSeconds: null,
      confirmed: true,
    });
    expect(await stored()).toEqual([]);
    expect(await wing.rows('SELECT * FROM subscriber_topics')).toEqual([]);
  });

  it('never calls a callback the outbound-address rules refuse (the loopback switch off)', async () => {
    const { path, url } = callback();
    wing.websub.intend('subscribe', topic('/feed.xml'), path);
    const off = wing.env({ ALLOW_LOOPBACK_RECEIVERS: 'false' });
    expect(await wing.handle([verifyMessage({ topic: topic('/feed.xml'), callback: url })], { env: off })).toEqual([]);
    expect(wing.websub.verifications).toEqual([]);
    expect(await stored()).toEqual([]);
  });

  it('makes no new subscription past the channel’s cap, even once verified; a renewal still passes', async () => {
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const full = wing.env({ SUBSCRIBER_CAPS: JSON.stringify({ websub: 1 }) });
    const first = callback();
    const second = callback();
    for (const { path } of [first, second]) wing.websub.intend('subscribe', topic('/feed.xml'), path);
    await wing.handle([verifyMessage({ topic: topic('/feed.xml'), callback: first.url })], { env: full });
    await wing.handle([verifyMessage({ topic: topic('/feed.xml'), callback: second.url })], { env: full });
    expect((await stored()).map(({ address }) => address)).toEqual([first.url]);
    expect(warned).toHaveBeenCalledWith('websub is full: a verified subscription was not made');
    wing.websub.intend('subscribe', topic('/feed.xml'), first.path);
    await wing.handle([verifyMessage({ topic: topic('/feed.xml'), callback: first.url, leaseSeconds: 60 })], {
      env: full,
    });
    expect(await stored()).toMatchObject([{ address: first.url, expires_at: at(1).toISOString() }]);
  });

  it('leaves a verify message of a channel that verifies nothing to the queue’s retries', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const message: VerifyMessage = { type: 'verify', channel: 'discord', request: {}, at: T0.toISOString() };
    expect(await wing.handle([message])).toEqual([message]);
  });
});
