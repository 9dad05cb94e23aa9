import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fixtureFiles } from '../../scripts/lib/built-files.ts';
import { edgeApp } from '../../scripts/lib/edge-app.ts';
import { NOW } from '../../src/core/test-events.ts';
import type { DeliveryBindings } from '../../src/server/delivery/bindings.ts';
import { withCommonHeaders } from '../../src/server/http/cors.ts';
import { createSubscriberKeys } from '../../tests/support/push-receiver.ts';
import { recordingQueue } from '../../tests/support/recording-queue.ts';
import { REAL_D1, stateDatabaseForFile } from '../../tests/support/state-d1.ts';
import { vapidForTest } from '../../tests/support/test-vapid.ts';

/**
 * Every channel's subscription writes stored for real, in-process over a local D1 (Miniflare's): each channel's total
 * cap per deployment (decisions.md, "Delivery that loses nothing": a write past it is `503 {"error":"<channel>_full"}`;
 * docs/delivery.md, "Bounds": push 100,000, Discord, Slack and WebSub 10,000 each, `SUBSCRIBER_CAPS` JSON to change
 * them), the chat webhooks' store (one row per URL, whatever its spelling), and no channel needing another's secrets.
 * Expected rows and answers are written by hand from those documents.
 */

const { secrets } = vapidForTest();
const files = fixtureFiles([], NOW);
const database = stateDatabaseForFile();

/**
 * Discord and Slack, as the connected message of a new webhook meets them (docs/delivery.md): each takes it, as the
 * platform answers a message it took (Discord 204, Slack 200 `ok`), and is counted; nothing leaves this machine.
 * Every other request (the local D1's) goes on to the real `fetch`.
 */
const realFetch = globalThis.fetch;
const PLATFORM_HOSTS = new Set(['discord.com', 'discordapp.com', 'hooks.slack.com']);
let platformMessages: string[] = [];
beforeEach(() => {
  platformMessages = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input);
    if (!PLATFORM_HOSTS.has(url.hostname)) return realFetch(input, init);
    platformMessages.push(url.href);
    return url.hostname === 'hooks.slack.com' ? new Response('ok') : new Response(null, { status: 204 });
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

type Bindings = Omit<DeliveryBindings, 'ASSETS'>;
/** The worker over the file's database, its queue recording, the VAPID secrets set; `bindings` replace. */
const app = (bindings: Bindings = {}) =>
  edgeApp(files, {
    push: {
      ...secrets,
      DB: database.db,
      DELIVERY_QUEUE: recordingQueue().queue as unknown as Queue,
      ALLOW_LOOPBACK_RECEIVERS: 'true',
      ...bindings,
    },
  });
const json = (method: 'POST' | 'DELETE', body: unknown) => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});
const caps = (value: unknown) => ({ SUBSCRIBER_CAPS: typeof value === 'string' ? value : JSON.stringify(value) });

const pushBody = (id: string) => {
  const { p256dh, auth } = createSubscriberKeys();
  const subscription = {
    endpoint: `https://fcm.googleapis.com/fcm/send/${id}`,
    expirationTime: null,
    keys: { p256dh, auth },
  };
  return { subscription, providers: ['provider_a'] };
};
const subscribe = (id: string, bindings: Bindings = {}) =>
  app(bindings).request('/api/push/subscriptions', json('POST', pushBody(id)));
const discordUrl = (id: number) => `https://discord.com/api/webhooks/${id}/token-${id}`;
const slackUrl = (id: number) => `https://hooks.slack.com/services/T0/B${id}/secret${id}`;
const connect = (url: string, bindings: Bindings = {}) =>
  app(bindings).request('/api/webhooks', json('POST', { url, providers: ['provider_a'] }));

async function expectFull(response: Response | undefined, channel: string): Promise<void> {
  expect(response?.status).toBe(503);
  expect(await response!.json()).toEqual({ error: `${channel}_full` });
}
const count = async (channel: string) =>
  (await database.db
    .prepare('SELECT count(*) AS n FROM subscribers WHERE channel = ?1')
    .bind(channel)
    .first<{ n: number }>())!.n;

describe('each channel’s cap', REAL_D1, () => {
  it('push: a new subscription past SUBSCRIBER_CAPS is 503 push_full; a known one still changes; one leaving makes room', async () => {
    const two = caps({ push: 2 });
    expect((await subscribe('a', two))?.status).toBe(201);
    expect((await subscribe('b', two))?.status).toBe(201);
    await expectFull(await subscribe('c', two), 'push');
    expect((await subscribe('a', two))?.status).toBe(200);
    expect(await count('push')).toBe(2);
    const left = await app(two).request(
      '/api/push/subscriptions',
      json('DELETE', { endpoint: 'https://fcm.googleapis.com/fcm/send/b' }),
    );
    expect(left?.status).toBe(204);
    expect((await subscribe('c', two))?.status).toBe(201);
  });

  it('Discord and Slack are counted apart, each to its own cap', async () => {
    const one = caps({ discord: 1, slack: 1 });
    expect((await connect(discordUrl(1), one))?.status).toBe(201);
    await expectFull(await connect(discordUrl(2), one), 'discord');
    expect((await connect(slackUrl(1), one))?.status).toBe(201);
    await expectFull(await connect(slackUrl(2), one), 'slack');
    expect([await count('discord'), await count('slack')]).toEqual([1, 1]);
  });

  it('a cap of 0 takes no new subscriber; a channel SUBSCRIBER_CAPS leaves out keeps its default', async () => {
    await expectFull(await connect(discordUrl(1), caps({ discord: 0 })), 'discord');
    expect((await connect(slackUrl(1), caps({ discord: 0 })))?.status).toBe(201);
  });

  it('the defaults: 10,000 Discord webhooks; the variable raises it, and one that is not JSON or names no whole number ≥ 0 leaves the default', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await database.db
      .prepare(
        `WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000)
         INSERT INTO subscribers (channel, key, address, locale, data, created_at)
         SELECT 'discord', 'https://discord.com/api/webhooks/' || i || '/t', 'https://discord.com/api/webhooks/' || i || '/t',
                'en', '{}', ?1 FROM n`,
      )
      .bind(NOW.toISOString())
      .run();
    await expectFull(await connect(discordUrl(10_001)), 'discord');
    for (const setting of [
      'not json',
      caps({ discord: -1 }).SUBSCRIBER_CAPS,
      caps({ discord: 1.5 }).SUBSCRIBER_CAPS,
      caps({ discord: '20000' }).SUBSCRIBER_CAPS,
    ])
      await expectFull(await connect(discordUrl(10_001), { SUBSCRIBER_CAPS: setting }), 'discord');
    expect(errors).toHaveBeenCalledWith('SUBSCRIBER_CAPS is not JSON; the default caps hold');
    // Slack keeps its own 10,000 while Discord is full.
    expect((await connect(slackUrl(1)))?.status).toBe(201);
    expect((await connect(discordUrl(10_001), caps({ discord: 10_001 })))?.status).toBe(201);
    expect(await count('discord')).toBe(10_001);
  });

  it('lets only as many of a burst of new subscribers in as the cap has room for', async () => {
    const three = caps({ slack: 3 });
    const statuses = await Promise.all(Array.from({ length: 8 }, (_, index) => connect(slackUrl(index), three)));
    expect(statuses.map((response) => response?.status).sort()).toEqual([201, 201, 201, 503, 503, 503, 503, 503]);
    expect(await count('slack')).toBe(3);
    // Only the three let in are told they are connected.
    expect(platformMessages).toHaveLength(3);
  });

  it('WebSub: the hub answers a new subscription past the cap 503 websub_full, and a renewal of a stored one 202', async () => {
    const hub = (mode: string, callback: string) =>
      app(caps({ websub: 1 })).request('/websub', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          'hub.mode': mode,
          'hub.topic': 'http://localhost:4321/feed.xml',
          'hub.callback': callback,
        }).toString(),
      });
    const stored = 'https://reader.example/cb/1';
    await database.db
      .prepare(`INSERT INTO subscribers (channel, key, address, data, created_at) VALUES ('websub', ?1, ?2, '{}', ?3)`)
      .bind(`http://localhost:4321/feed.xml ${stored}`, stored, NOW.toISOString())
      .run();
    await expectFull(await hub('subscribe', 'https://reader.example/cb/2'), 'websub');
    expect((await hub('subscribe', stored))?.status).toBe(202);
    expect((await hub('unsubscribe', 'https://reader.example/cb/2'))?.status).toBe(202);
  });
});

describe('the chat webhooks’ store', REAL_D1, () => {
  const STORED = 'https://discord.com/api/webhooks/123/AbC';
  const rows = async () =>
    (
      await database.db
        .prepare(
          `SELECT s.channel, s.key, s.address, s.locale, s.failing_since, group_concat(t.topic, ' ') AS topics
           FROM subscribers s LEFT JOIN subscriber_topics t ON t.subscriber_id = s.id GROUP BY s.id ORDER BY s.id`,
        )
        .all()
    ).results;

  it('stores a new URL (201 with its platform) without the VAPID keys, and every spelling of it replaces its topics (200)', async () => {
    const noVapid = { VAPID_PUBLIC_KEY: '', VAPID_PRIVATE_KEY: '', VAPID_SUBJECT: '' };
    const first = await app(noVapid).request(
      '/api/webhooks',
      json('POST', { url: 'HTTPS://DISCORD.com.:443/api/webhooks/123/AbC', providers: ['provider_a'] }),
    );
    expect(first?.status).toBe(201);
    expect(await first!.json()).toEqual({
      platform: 'discord',
      providers: ['provider_a'],
      kinds: ['reset'],
      locale: 'en',
    });
    const second = await app(noVapid).request(
      '/api/webhooks',
      json('POST', { url: STORED, providers: ['provider_b', 'provider_c'], kinds: ['boost'], locale: 'zh' }),
    );
    expect(second?.status).toBe(200);
    expect(await rows()).toEqual([
      {
        channel: 'discord',
        key: STORED,
        address: STORED,
        locale: 'zh',
        failing_since: null,
        topics: expect.any(String),
      },
    ]);
    expect(
      String((await rows())[0]!['topics'])
        .split(' ')
        .sort(),
    ).toEqual(['provider_b/boost', 'provider_c/boost']);
    // Push, which does need them, is unavailable meanwhile.
    const push = await app(noVapid).request('/api/push/subscriptions', json('POST', pushBody('x')));
    expect(push?.status).toBe(503);
    expect(await push!.json()).toEqual({ error: 'push_unavailable' });
  });

  it('forgets a URL under any spelling with its topics (204), and an unknown one the same', async () => {
    await connect(STORED);
    const forget = (url: string) => app().request('/api/webhooks', json('DELETE', { url }));
    expect((await forget(' https://Discord.com./api/webhooks/123/AbC'))?.status).toBe(204);
    expect(await rows()).toEqual([]);
    expect(await database.db.prepare('SELECT count(*) AS n FROM subscriber_topics').first()).toEqual({ n: 0 });
    expect((await forget(STORED))?.status).toBe(204);
  });

  it('a database that fails is 503 webhooks_unavailable with Retry-After, as the worker sends it', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failing = () => Promise.reject(new Error('D1_ERROR: database is locked: SQLITE_BUSY'));
    const statement = { bind: () => statement, first: failing, run: failing, all: failing, raw: failing };
    const locked = { prepare: () => statement, batch: failing, exec: failing } as unknown as D1Database;
    for (const init of [json('POST', { url: STORED, providers: ['provider_a'] }), json('DELETE', { url: STORED })]) {
      const sent = withCommonHeaders((await app({ DB: locked }).request('/api/webhooks', init))!);
      expect(sent.status).toBe(503);
      expect(await sent.json()).toEqual({ error: 'webhooks_unavailable' });
      expect(sent.headers.get('Retry-After')).toBe('30');
      expect(sent.headers.get('Cache-Control')).toBe('no-store');
    }
  });
});
