import { afterEach, describe, expect, it, vi } from 'vitest';
import { DiscordExecuteWebhookSchema, SlackIncomingWebhookSchema } from '../../../tests/support/chat-shapes.ts';
import { at, deliveryWing, T0 } from '../../../tests/support/delivery-wing.ts';
import { decryptPush, verifyVapid } from '../../../tests/support/push-receiver.ts';
import { REAL_D1 } from '../../../tests/support/state-d1.ts';
import type { Event } from '../../core/schemas.ts';
import { makeEvent } from '../../core/test-events.ts';
import { BASE_URL } from '../base-url.ts';
import { dispatchDue } from './dispatch.ts';
import type { DeliverMessage } from './messages.ts';
import { recoverDeliveries } from './recover.ts';
import { runScheduledDelivery } from './worker-handlers.ts';

/**
 * The delivery wing's dispatch and fan-out (decisions.md, "Delivery that loses nothing"), in-process over a real
 * local D1, with a push service, Discord and Slack, and a WebSub subscriber on loopback (tests/support/delivery-wing.ts).
 * The wing's own functions run: `dispatchDue` and `recoverDeliveries` at the clock the test hands them, the worker's
 * queue handler on each message the recording queue kept. What each receiver gets is checked there, against what
 * the RFCs and the platforms' documents say (push: RFC 8030/8291/8292 and the decided payload, docs/delivery.md;
 * Discord's Execute Webhook and Slack's incoming webhooks: tests/support/chat-shapes.ts; WebSub §7), written by hand.
 */

const wing = deliveryWing();
afterEach(() => vi.restoreAllMocks());

const history = () => makeEvent({ id: 'history-1', provider: 'provider_a', announcedAt: at(-3000).toISOString() });
const SUMMARY = 'Weekly limits reset for everyone.';
/** A reset of provider_a announced a minute before `T0`, unless told otherwise. */
const reset = (id: string, overrides: Partial<Event> = {}) =>
  makeEvent({
    id,
    provider: 'provider_a',
    kind: 'reset',
    announcedAt: at(-1).toISOString(),
    summary: SUMMARY,
    ...overrides,
  });

/** The UTC minute as the messages write it ("2026-06-15 12:00 UTC"), by the test's own hand. */
const utcMinuteOf = (moment: Date) => `${moment.toISOString().slice(0, 10)} ${moment.toISOString().slice(11, 16)} UTC`;
const bodies = () => wing.queued.sent.map(({ body }) => body);
/** The first dispatch ever, over the history alone: it is marked as sent, nothing leaves. */
async function firstDispatch(now = at(-30)) {
  wing.published = [history()];
  expect(await dispatchDue(wing.env(), now)).toEqual({ due: 1, enqueued: 0, suppressed: 1 });
}

describe('the dispatch', REAL_D1, () => {
  it('marks the history present at the first dispatch as sent without sending it, and sends what comes after once', async () => {
    const push = await wing.pushSubscriber(['provider_a/reset']);
    const discord = await wing.chatSubscriber('discord', ['provider_a/reset']);
    const feed = await wing.webSubSubscriber(`${BASE_URL}/feed.xml`);
    await firstDispatch(T0);
    expect(wing.queued.sent).toEqual([]);
    expect(await wing.rows('SELECT event_id, suppressed, fanout_done FROM notifications')).toEqual([
      { event_id: 'history-1', suppressed: 1, fanout_done: 1 },
    ]);
    // Nothing is left for the cron to find either, however long it waits.
    expect(await recoverDeliveries(wing.env(), at(60))).toEqual({ expired: 0, fanouts: 0, requeued: 0 });
    expect(await wing.drain()).toEqual([]);
    expect([wing.push.received, wing.chat.received, wing.websub.deliveries]).toEqual([[], [], []]);

    // Published by a later build (the fixture's build is dated T0, and holds nothing announced after it).
    wing.published.push(reset('new-1'));
    expect(await dispatchDue(wing.env(), at(62))).toEqual({ due: 2, enqueued: 1, suppressed: 0 });
    expect(await dispatchDue(wing.env(), at(63))).toEqual({ due: 2, enqueued: 0, suppressed: 0 });
    expect(await wing.drain()).toEqual([]);
    expect(wing.push.received.map(({ path }) => path)).toEqual([push.path]);
    expect(wing.chat.received.map(({ path }) => path)).toEqual([discord.path]);
    expect(wing.websub.deliveries.map(({ path }) => path)).toEqual([feed.path]);
  });

  it('takes the history for history once, however many first dispatches run at once', async () => {
    await wing.pushSubscriber(['provider_a/reset']);
    wing.published = [history(), reset('earlier', { announcedAt: at(-200).toISOString() })];
    const results = await Promise.all([1, 2, 3].map(() => dispatchDue(wing.env(), T0)));
    expect(results.map(({ enqueued }) => enqueued)).toEqual([0, 0, 0]);
    expect(results.reduce((sum, { suppressed }) => sum + suppressed, 0)).toBe(2);
    expect(wing.queued.sent).toEqual([]);
  });

  it('after a first dispatch with nothing due, takes the first event for news, not history', async () => {
    const push = await wing.pushSubscriber(['provider_a/reset']);
    expect(await dispatchDue(wing.env(), at(-10))).toEqual({ due: 0, enqueued: 0, suppressed: 0 });
    wing.published = [reset('first-ever')];
    expect(await dispatchDue(wing.env(), T0)).toEqual({ due: 1, enqueued: 1, suppressed: 0 });
    expect(await wing.drain()).toEqual([]);
    expect(wing.push.received.map(({ path }) => path)).toEqual([push.path]);
  });

  it('fans a new event out once when dispatches overlap, and once when its fan-out message comes twice', async () => {
    const subscribers = [
      await wing.pushSubscriber(['provider_a/reset']),
      await wing.chatSubscriber('slack', ['provider_a/reset']),
    ];
    await firstDispatch();
    wing.published.push(reset('raced'));
    const results = await Promise.all([1, 2, 3, 4].map(() => dispatchDue(wing.env(), T0)));
    expect(results.reduce((sum, { enqueued }) => sum + enqueued, 0)).toBe(1);
    const [fanout, ...others] = bodies();
    expect(others).toEqual([]);
    expect(fanout).toMatchObject({ type: 'fanout', transition: 'announced', event: { id: 'raced' } });
    wing.queued.take();
    // The queue may hand a message twice, even to two consumers at once.
    expect(await wing.handle([fanout!, fanout!])).toEqual([]);
    expect(await wing.handle([fanout!])).toEqual([]);
    const delivers = bodies().filter((body): body is DeliverMessage => body.type === 'deliver');
    expect(delivers.flatMap(({ subscriberIds }) => subscriberIds)).toEqual(subscribers.map(({ id }) => id));
    expect(await wing.drain()).toEqual([]);
    expect(wing.push.received).toHaveLength(1);
    expect(wing.chat.received).toHaveLength(1);
  });

  it('sends a scheduled reset when it is announced and again when it takes effect; never a draft, nor an event announced later', async () => {
    const push = await wing.pushSubscriber(['provider_a/reset']);
    const slack = await wing.chatSubscriber('slack', ['provider_a/reset']);
    await firstDispatch();
    const scheduled = reset('scheduled', { effectiveAt: at(30).toISOString() });
    wing.published.push(
      scheduled,
      reset('draft', { verified: false }),
      reset('tomorrow', { announcedAt: at(24 * 60).toISOString() }),
    );
    expect(await dispatchDue(wing.env(), T0)).toMatchObject({ enqueued: 1 });
    expect(await dispatchDue(wing.env(), at(29))).toMatchObject({ enqueued: 0 });
    expect(await wing.drain()).toEqual([]);
    expect(await dispatchDue(wing.env(), at(30))).toMatchObject({ enqueued: 1 });
    expect(await dispatchDue(wing.env(), at(31))).toMatchObject({ enqueued: 0 });
    expect(await wing.drain()).toEqual([]);

    const payloads = (await wing.push.waitFor(2, push.path)).map((received) =>
      JSON.parse(decryptPush(received, push.keys)),
    );
    expect(payloads.map(({ title, body, transition }) => ({ title, body, transition }))).toEqual([
      {
        title: 'Provider A: Reset scheduled',
        body: `Scheduled for ${utcMinuteOf(at(30))}. ${SUMMARY}`,
        transition: 'announced',
      },
      {
        title: 'Provider A: Reset now',
        body: `In effect since ${utcMinuteOf(at(30))}. ${SUMMARY}`,
        transition: 'effective',
      },
    ]);
    // Slack: each message says which moment it is about, a date each reader sees in their own time zone.
    const contexts = wing.chat.received.map(({ path, body }) => {
      expect(path).toBe(slack.path);
      return SlackIncomingWebhookSchema.parse(body).blocks?.[1];
    });
    const seconds = (moment: Date) => moment.getTime() / 1000;
    expect(contexts).toEqual([
      {
        type: 'context',
        elements: [
          {
            type: 'mrkdwn',
            text: expect.stringMatching(
              new RegExp(
                `^Announced <!date\\^${seconds(at(-1))}\\^[^|]+\\|${utcMinuteOf(at(-1))}> · <https://posts\\.provider-a\\.example/scheduled\\|Original post>$`,
              ),
            ),
          },
        ],
      },
      {
        type: 'context',
        elements: [
          {
            type: 'mrkdwn',
            text: expect.stringMatching(
              new RegExp(
                `^In effect <!date\\^${seconds(at(30))}\\^[^|]+\\|${utcMinuteOf(at(30))}> · <https://posts\\.provider-a\\.example/scheduled\\|Original post>$`,
              ),
            ),
          },
        ],
      },
    ]);
    expect(await wing.rows('SELECT event_id, transition FROM notifications WHERE suppressed = 0 ORDER BY 2')).toEqual([
      { event_id: 'scheduled', transition: 'announced' },
      { event_id: 'scheduled', transition: 'effective' },
    ]);
  });
});

describe('one fan-out, every channel', REAL_D1, () => {
  it('reaches the push, Discord, Slack and WebSub subscribers whose topics match, each in its language and its platform’s form, and nobody else', async () => {
    const pushEn = await wing.pushSubscriber(['provider_a/reset']);
    const pushZh = await wing.pushSubscriber(['provider_b/boost', 'provider_a/reset'], { locale: 'zh' });
    await wing.pushSubscriber(['provider_b/reset']);
    await wing.pushSubscriber(['provider_a/promo']);
    // Its subscription ended before the event: the fan-out passes it by.
    await wing.pushSubscriber(['provider_a/reset'], { expiresAt: at(-1) });
    const discordEn = await wing.chatSubscriber('discord', ['provider_a/reset']);
    const slackZh = await wing.chatSubscriber('slack', ['provider_a/reset'], { locale: 'zh' });
    await wing.chatSubscriber('discord', ['provider_c/reset']);
    await wing.chatSubscriber('slack', ['provider_a/boost']);
    const everything = await wing.webSubSubscriber(`${BASE_URL}/feed.xml`);
    const atomA = await wing.webSubSubscriber(`${BASE_URL}/feed.atom?provider=provider_a`, { secret: 'k€y' });
    const jsonA = await wing.webSubSubscriber(`${BASE_URL}/feed.json?provider=provider_a`);
    await wing.webSubSubscriber(`${BASE_URL}/feed.xml?provider=provider_b`);

    await firstDispatch();
    wing.published.push(reset('new-a'));
    expect(await dispatchDue(wing.env(), T0)).toEqual({ due: 2, enqueued: 1, suppressed: 0 });
    expect(await wing.drain()).toEqual([]);

    // Push (RFC 8030): TTL, Urgency, the aes128gcm body (RFC 8291, decrypted by http_ece), the VAPID JWT (RFC 8292,
    // verified by jose), and the decided payload in the subscription's language (the page stays the English one).
    expect(wing.push.received.map(({ path }) => path).sort()).toEqual([pushEn.path, pushZh.path].sort());
    const payload = (title: string) => ({
      title,
      body: SUMMARY,
      url: `${BASE_URL}/provider_a#event-new-a`,
      tag: 'provider_a-reset',
      eventId: 'new-a',
      provider: 'provider_a',
      kind: 'reset',
      transition: 'announced',
    });
    for (const [subscriber, title] of [
      [pushEn, 'Provider A: Reset'],
      [pushZh, '供应商 A：重置'],
    ] as const) {
      const [push] = await wing.push.waitFor(1, subscriber.path);
      expect(push!.headers).toMatchObject({ ttl: '86400', urgency: 'high', 'content-encoding': 'aes128gcm' });
      // RFC 8030 §5.4: a Topic is at most 32 characters of the URL-safe base64 alphabet.
      expect(push!.headers.topic).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
      const claims = await verifyVapid(push!, wing.vapid.keys.publicKey, wing.push.origin.replace('http:', 'https:'));
      expect(claims.sub).toBe('mailto:test@departures-board.invalid');
      expect(JSON.parse(decryptPush(push!, subscriber.keys))).toStrictEqual(payload(title));
    }
    // One delivery: one Topic, whoever receives it.
    expect(new Set(wing.push.received.map(({ headers }) => headers.topic)).size).toBe(1);

    // Discord's Execute Webhook and Slack's incoming webhook, each message held to the platform's documented shape.
    expect(wing.chat.received.map(({ path }) => path).sort()).toEqual([discordEn.path, slackZh.path].sort());
    const [discord] = await wing.chat.waitFor(1, discordEn.path);
    expect(discord!.headers['content-type']).toBe('application/json');
    expect(discord!.headers['idempotency-key']).toBe('new-a/announced');
    expect(DiscordExecuteWebhookSchema.parse(discord!.body)).toStrictEqual({
      content: 'Provider A: Reset',
      allowed_mentions: { parse: [] },
      embeds: [
        {
          title: 'Provider A: Reset',
          url: `${BASE_URL}/provider_a#event-new-a`,
          description: `${SUMMARY}\n\n[Original post](https://posts.provider-a.example/new-a)`,
          timestamp: at(-1).toISOString(),
        },
      ],
    });
    const [slack] = await wing.chat.waitFor(1, slackZh.path);
    expect(slack!.headers['idempotency-key']).toBe('new-a/announced');
    const slackBody = SlackIncomingWebhookSchema.parse(slack!.body);
    expect(slackBody.text).toBe('供应商 A：重置');
    expect(slackBody.blocks?.[0]).toEqual({
      type: 'section',
      text: { type: 'mrkdwn', text: `*<${BASE_URL}/zh/provider_a#event-new-a|供应商 A：重置>*\n${SUMMARY}` },
    });
    expect(JSON.stringify(slackBody.blocks?.[1])).toContain('公布于 <!date^');
    expect(JSON.stringify(slackBody.blocks?.[1])).toContain('<https://posts.provider-a.example/new-a|原帖>');

    // WebSub §7: each topic's whole feed as built, byte for byte, with its type, its Link header (rel="hub" and
    // rel="self"), and X-Hub-Signature where the subscriber gave a secret (checked by the subscriber with node:crypto).
    expect(wing.websub.deliveries.map(({ path }) => path).sort()).toEqual(
      [everything.path, atomA.path, jsonA.path].sort(),
    );
    const built = wing.files();
    for (const [subscriber, file, type, self, signature] of [
      [everything, '/feed.xml', 'application/rss+xml; charset=utf-8', `${BASE_URL}/feed.xml`, 'absent'],
      [
        atomA,
        '/data/feeds/provider_a.atom',
        'application/atom+xml; charset=utf-8',
        `${BASE_URL}/feed.atom?provider=provider_a`,
        'valid',
      ],
      [
        jsonA,
        '/data/feeds/provider_a.json',
        'application/feed+json; charset=utf-8',
        `${BASE_URL}/feed.json?provider=provider_a`,
        'absent',
      ],
    ] as const) {
      const delivery = wing.websub.deliveries.find(({ path }) => path === subscriber.path)!;
      expect(Buffer.from(built.get(file)!).equals(delivery.body), file).toBe(true);
      expect(delivery.body.toString()).toContain('#event-new-a');
      expect(delivery.headers['content-type']).toBe(type);
      expect(delivery.headers.link).toBe(`<${BASE_URL}/websub>; rel="hub", <${self}>; rel="self"`);
      expect(delivery.headers['idempotency-key']).toBe('new-a/announced');
      expect(delivery.signature).toBe(signature);
    }

    // The ledger: one row per subscriber reached, sent on the first try; the fan-out is done.
    const reached = [pushEn, pushZh, discordEn, slackZh, everything, atomA, jsonA]
      .map(({ id }) => id)
      .sort((a, b) => a - b);
    expect(await wing.rows('SELECT subscriber_id AS id, state, attempts FROM deliveries ORDER BY 1')).toEqual(
      reached.map((id) => ({ id, state: 'sent', attempts: 1 })),
    );
    expect(await wing.rows("SELECT fanout_done, lease FROM notifications WHERE event_id = 'new-a'")).toEqual([
      { fanout_done: 1, lease: null },
    ]);
    // The next minutes send nothing more.
    expect(await recoverDeliveries(wing.env(), at(10))).toEqual({ expired: 0, fanouts: 0, requeued: 0 });
    expect(await dispatchDue(wing.env(), at(10))).toMatchObject({ enqueued: 0 });
    expect(wing.queued.sent).toEqual([]);
  });
});

describe('the minute cron when a store is unavailable', () => {
  const lockedD1 = {
    prepare: () => ({ bind: () => ({}) }),
    batch: () => Promise.reject(new Error('D1_ERROR: database is locked: SQLITE_BUSY')),
  } as unknown as D1Database;

  it('logs the dispatch and the recovery that failed, with their minute, and ends normally', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const env = {
      ...wing.env(),
      ASSETS: { fetch: async () => new Response('Not Found', { status: 404 }) },
      DB: lockedD1,
    };
    const minute = new Date('2026-04-07T08:15:00.000Z');
    // It ends normally, naming the parts that failed for the run's record (src/server/health/scheduled.ts).
    await expect(runScheduledDelivery(env, minute)).resolves.toEqual(['dispatch', 'recovery']);
    expect(logged.mock.calls.map(([message]) => message)).toEqual([
      "the dispatch of 2026-04-07T08:15:00.000Z failed; the next minute's run tries again:",
      "the recovery of 2026-04-07T08:15:00.000Z failed; the next minute's run tries again:",
    ]);
    expect(String(logged.mock.calls[0]![1])).toMatch(/board\.json answered 404/);
    expect(String(logged.mock.calls[1]![1])).toMatch(/database is locked/);
  });

  it('does nothing without the state database or the queue', async () => {
    const { DB: _db, ...withoutDatabase } = wing.env();
    await expect(runScheduledDelivery(withoutDatabase, T0)).resolves.toEqual([]);
    expect(wing.queued.sent).toEqual([]);
  });
});
