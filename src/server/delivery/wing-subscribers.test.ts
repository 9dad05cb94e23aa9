import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  answersAt,
  at,
  atSeconds,
  deliverySteps,
  deliveryWing,
  HOUR_MS,
  iso,
  type LedgerRow,
  MINUTE_MS,
  resetEvent as reset,
} from '../../../tests/support/delivery-wing.ts';
import { decryptPush } from '../../../tests/support/push-receiver.ts';
import { REAL_D1 } from '../../../tests/support/state-d1.ts';
import { BASE_URL } from '../base-url.ts';
import { deliver } from './deliver.ts';
import { deleteSubscriber } from './subscribers.ts';

/**
 * The delivery wing's subscribers (decisions.md, "Delivery that loses nothing"), in-process over a real local D1 and
 * real receivers on loopback (tests/support/delivery-wing.ts): who is removed (gone at the receiver, ended, no longer
 * an allowed address, failing for 7 days), ids never given twice, and each channel on its own (no channel needs
 * another's secrets; the service's own fault is no subscriber's failure).
 */

const wing = deliveryWing();
const { fannedOut, recoverAt, ledger, failingSince, subscriberIds } = deliverySteps(wing);
afterEach(() => vi.restoreAllMocks());

const SECOND_MS = 1000;

describe('subscribers gone', REAL_D1, () => {
  it('removes a subscriber its receiver says is gone (push 404 and 410, Discord 404, Slack 410, WebSub 410), with its topics and ledger; WebSub’s 404 is retried', async () => {
    const push404 = await wing.pushSubscriber(['provider_a/reset']);
    const push410 = await wing.pushSubscriber(['provider_a/reset']);
    const discord = await wing.chatSubscriber('discord', ['provider_a/reset']);
    const slack = await wing.chatSubscriber('slack', ['provider_a/reset']);
    const feed410 = await wing.webSubSubscriber(`${BASE_URL}/feed.xml`);
    const feed404 = await wing.webSubSubscriber(`${BASE_URL}/feed.xml`);
    const kept = await wing.pushSubscriber(['provider_a/reset']);
    wing.push.answerNext(push404.path, { status: 404 });
    wing.push.answerNext(push410.path, { status: 410 });
    wing.chat.answerNext(discord.path, {
      status: 404,
      headers: { 'content-type': 'application/json' },
      body: '{"message":"Unknown Webhook","code":10015}',
    });
    wing.chat.answerNext(slack.path, { status: 410, body: 'channel_is_archived' });
    wing.websub.answerNext(feed410.path, { status: 410 });
    wing.websub.answerNext(feed404.path, { status: 404 });
    expect(await wing.handle(await fannedOut())).toEqual([]);
    expect(await subscriberIds()).toEqual([feed404.id, kept.id]);
    expect(await wing.rows('SELECT subscriber_id FROM subscriber_topics ORDER BY 1')).toEqual([
      { subscriber_id: feed404.id },
      { subscriber_id: kept.id },
    ]);
    expect((await ledger()).map(({ id, state }) => [id, state])).toEqual([
      [feed404.id, 'pending'],
      [kept.id, 'sent'],
    ]);
  });

  it('never gives a removed subscriber’s id to another (AUTOINCREMENT): its queued delivery reaches nobody', async () => {
    const first = await wing.chatSubscriber('discord', ['provider_a/reset']);
    const delivers = await fannedOut();
    expect(delivers.flatMap(({ subscriberIds }) => subscriberIds)).toEqual([first.id]);
    // It leaves while its delivery waits in the queue; a new webhook of the same topic arrives.
    await deleteSubscriber(wing.db, 'discord', `${wing.chat.origin}${first.path}`);
    const next = await wing.chatSubscriber('discord', ['provider_a/reset']);
    expect(next.id).not.toBe(first.id);
    expect(next.id).toBe(first.id + 1);
    expect(await wing.handle(delivers)).toEqual([]);
    expect(await recoverAt(at(60))).toMatchObject({ requeued: 0 });
    expect(wing.chat.received).toEqual([]);
    expect(await ledger()).toEqual([]);
  });

  it('removes unsent a subscriber whose subscription ended before its delivery; the minute’s recovery removes the others that ended', async () => {
    const endsSoon = await wing.pushSubscriber(['provider_a/reset'], { expiresAt: at(1) });
    const feed = await wing.webSubSubscriber(`${BASE_URL}/feed.xml`, { expiresAt: at(1) });
    const discord = await wing.chatSubscriber('discord', ['provider_a/reset']);
    const elsewhere = await wing.pushSubscriber(['provider_b/reset'], { expiresAt: at(1) });
    const delivers = await fannedOut();
    expect(delivers.flatMap(({ subscriberIds }) => subscriberIds)).toEqual([endsSoon.id, feed.id, discord.id]);
    // The queue hands the message on two minutes later: both subscriptions have ended by then.
    const settings = { rules: { allowLoopbackReceiver: true }, baseUrl: BASE_URL };
    for (const message of delivers) await deliver(wing.env(), message, settings, at(2));
    expect(await subscriberIds()).toEqual([discord.id, elsewhere.id]);
    expect(await recoverAt(at(2))).toMatchObject({ requeued: 0 });
    expect(await subscriberIds()).toEqual([discord.id]);
    expect(wing.push.received).toEqual([]);
    expect(wing.websub.deliveries).toEqual([]);
    expect(answersAt(wing.chat.received, discord.path)).toEqual([204]);
  });

  it('removes unsent every subscriber on loopback once the loopback switch is off', async () => {
    await wing.pushSubscriber(['provider_a/reset']);
    await wing.chatSubscriber('discord', ['provider_a/reset']);
    await wing.webSubSubscriber(`${BASE_URL}/feed.xml`);
    const off = wing.env({ ALLOW_LOOPBACK_RECEIVERS: 'false' });
    expect(await wing.handle(await fannedOut(), { env: off })).toEqual([]);
    expect(await subscriberIds()).toEqual([]);
    expect(await ledger()).toEqual([]);
    expect([wing.push.received, wing.chat.received, wing.websub.deliveries]).toEqual([[], [], []]);
  });

  it('drops a subscriber that has failed for 7 days at its next failure, keeps one failing a minute less, and clears one that answers', async () => {
    const week = await wing.chatSubscriber('discord', ['provider_a/reset']);
    const almost = await wing.chatSubscriber('slack', ['provider_a/reset']);
    const answering = await wing.pushSubscriber(['provider_a/reset']);
    const sevenDays = 7 * 24 * HOUR_MS;
    const setFailing = (id: number, since: number) =>
      wing.db.prepare('UPDATE subscribers SET failing_since = ?2 WHERE id = ?1').bind(id, iso(since)).run();
    await setFailing(week.id, -sevenDays);
    await setFailing(almost.id, -sevenDays + MINUTE_MS);
    await setFailing(answering.id, -2 * sevenDays);
    wing.chat.answerNext(week.path, { status: 503 });
    wing.chat.answerNext(almost.path, { status: 503 });
    expect(await wing.handle(await fannedOut())).toEqual([]);
    expect(await failingSince()).toEqual([
      { id: almost.id, failing_since: iso(-sevenDays + MINUTE_MS) },
      { id: answering.id, failing_since: null },
    ]);
  });
});

describe('each channel on its own', REAL_D1, () => {
  it('delivers chat and WebSub without the VAPID keys while push’s deliveries wait, no failure of their subscribers, until the keys are back', async () => {
    const {
      VAPID_PUBLIC_KEY: _public,
      VAPID_PRIVATE_KEY: _private,
      VAPID_SUBJECT: _subject,
      ...withoutVapid
    } = wing.env();
    const push = await wing.pushSubscriber(['provider_a/reset']);
    const discord = await wing.chatSubscriber('discord', ['provider_a/reset']);
    const slack = await wing.chatSubscriber('slack', ['provider_a/reset']);
    const feed = await wing.webSubSubscriber(`${BASE_URL}/feed.xml`);
    expect(await wing.handle(await fannedOut(reset('no-keys'), withoutVapid), { env: withoutVapid })).toEqual([]);
    expect(answersAt(wing.chat.received, discord.path)).toEqual([204]);
    expect(answersAt(wing.chat.received, slack.path)).toEqual([200]);
    expect(wing.websub.deliveries.map(({ path }) => path)).toEqual([feed.path]);
    expect(wing.push.received).toEqual([]);
    expect((await ledger()).map(({ id, state, due_at }) => [id, state, due_at])).toEqual([
      [push.id, 'pending', iso(30 * SECOND_MS)],
      [discord.id, 'sent', iso(0)],
      [slack.id, 'sent', iso(0)],
      [feed.id, 'sent', iso(0)],
    ]);
    // The deployment's missing secret is no fault of the subscriber's.
    expect((await failingSince()).map(({ failing_since }) => failing_since)).toEqual([null, null, null, null]);
    // Still missing at the next try: it waits again.
    expect(await recoverAt(atSeconds(30), { env: withoutVapid })).toMatchObject({ requeued: 1 });
    expect(wing.push.received).toEqual([]);
    // The keys are set: the next recovery at its due time sends it, once.
    const [{ due_at: due }] = (await ledger()) as [LedgerRow];
    expect(await recoverAt(new Date(due))).toMatchObject({ requeued: 1 });
    const [received] = await wing.push.waitFor(1, push.path);
    expect(JSON.parse(decryptPush(received!, push.keys))).toMatchObject({ eventId: 'no-keys' });
    expect(await recoverAt(at(120))).toMatchObject({ requeued: 0 });
    expect(wing.push.received).toHaveLength(1);
    expect(wing.chat.received).toHaveLength(2);
    expect(wing.websub.deliveries).toHaveLength(1);
  });

  it('lets a WebSub delivery wait while its built feed cannot be read, no fault of the subscriber’s, and sends it once the feed is back', async () => {
    const feed = await wing.webSubSubscriber(`${BASE_URL}/feed.atom`);
    const delivers = await fannedOut();
    const broken = wing.env({ ASSETS: { fetch: async () => new Response('gone', { status: 404 }) } });
    expect(await wing.handle(delivers, { env: broken })).toEqual([]);
    expect(wing.websub.deliveries).toEqual([]);
    expect(await ledger()).toMatchObject([{ state: 'pending', due_at: iso(30 * SECOND_MS) }]);
    expect(await failingSince()).toEqual([{ id: feed.id, failing_since: null }]);
    expect(await recoverAt(atSeconds(30))).toMatchObject({ requeued: 1 });
    expect(wing.websub.deliveries.map(({ path, status }) => [path, status])).toEqual([[feed.path, 200]]);
  });
});
