import { afterEach, describe, expect, it, vi } from 'vitest';
import { discordRateLimit, slackRateLimit } from '../../../tests/support/chat-receiver.ts';
import {
  answersAt,
  at,
  atSeconds,
  deliverySteps,
  deliveryWing,
  HOUR_MS,
  iso,
  resetEvent as reset,
  T0,
} from '../../../tests/support/delivery-wing.ts';
import { decryptPush } from '../../../tests/support/push-receiver.ts';
import { REAL_D1 } from '../../../tests/support/state-d1.ts';
import { BASE_URL } from '../base-url.ts';
import { dispatchDue } from './dispatch.ts';
import { recoverDeliveries } from './recover.ts';

/**
 * The delivery wing's promise (decisions.md, "Delivery that loses nothing"), in-process over a real local D1 and
 * real receivers on loopback (tests/support/delivery-wing.ts): each subscriber whose topics match gets each
 * (event, transition) once, as long as it accepts a delivery within 24 hours; a message handled twice, a message
 * lost, a sender that died and a failing receiver lose nothing and send nothing twice. The test hands
 * every function its clock and moves it by minutes and hours; expected times are written from the decided limits
 * (30 s doubling to an hour, Retry-After up to 6 h, a queued hold of 5 minutes, a sender's of 2, the 24 h window).
 */

const wing = deliveryWing();
const { fannedOut, recoverAt, loseCarriers, ledger, failingSince } = deliverySteps(wing);
afterEach(() => vi.restoreAllMocks());

const SECOND_MS = 1000;

describe('once, whatever the queue does', REAL_D1, () => {
  it('sends a deliver message handled twice once, one copy after the other or two at once', async () => {
    const push = await wing.pushSubscriber(['provider_a/reset']);
    const discord = await wing.chatSubscriber('discord', ['provider_a/reset']);
    const slack = await wing.chatSubscriber('slack', ['provider_a/reset']);
    const feed = await wing.webSubSubscriber(`${BASE_URL}/feed.json`);
    const delivers = await fannedOut();
    expect(await wing.handle([...delivers, ...delivers])).toEqual([]);
    expect(await wing.handle(delivers)).toEqual([]);
    expect(await recoverAt(at(30))).toEqual({ expired: 0, fanouts: 0, requeued: 0 });
    expect(answersAt(wing.push.received, push.path)).toEqual([201]);
    expect(answersAt(wing.chat.received, discord.path)).toEqual([204]);
    expect(answersAt(wing.chat.received, slack.path)).toEqual([200]);
    expect(wing.websub.deliveries.map(({ path }) => path)).toEqual([feed.path]);
    expect((await ledger()).map(({ state, attempts }) => [state, attempts])).toEqual([
      ['sent', 1],
      ['sent', 1],
      ['sent', 1],
      ['sent', 1],
    ]);
  });

  it('re-queues a deliver message that never reached the worker once its 5-minute hold ends, not before, and sends it once', async () => {
    const discord = await wing.chatSubscriber('discord', ['provider_a/reset']);
    const feed = await wing.webSubSubscriber(`${BASE_URL}/feed.xml`);
    const lost = await fannedOut();
    expect(await recoverAt(atSeconds(299))).toEqual({ expired: 0, fanouts: 0, requeued: 0 });
    expect(wing.chat.received).toEqual([]);
    expect(await recoverAt(atSeconds(300))).toEqual({ expired: 0, fanouts: 0, requeued: 2 });
    // The lost message turns up after all: what it held was handed on and sent, so it sends nothing.
    expect(await wing.handle(lost)).toEqual([]);
    expect(await recoverAt(at(60))).toEqual({ expired: 0, fanouts: 0, requeued: 0 });
    expect(answersAt(wing.chat.received, discord.path)).toEqual([204]);
    expect(wing.websub.deliveries.map(({ path }) => path)).toEqual([feed.path]);
  });

  it('takes over a claim left by a sender that died (held, never recorded) 2 minutes after the claim, and sends it once', async () => {
    const discord = await wing.chatSubscriber('discord', ['provider_a/reset']);
    const delivers = await fannedOut();
    // The isolate claims the delivery and dies while its request is out: nothing is ever recorded.
    let claimed: () => void = () => undefined;
    const sending = new Promise<void>((resolve) => {
      claimed = resolve;
    });
    const dying = (() => {
      claimed();
      return new Promise<Response>(() => undefined);
    }) as unknown as typeof fetch;
    void wing.handle(delivers, { fetcher: dying });
    await sending;
    expect(await ledger()).toEqual([
      { id: discord.id, state: 'pending', attempts: 1, due_at: iso(0), lease: expect.any(String), last_error: null },
    ]);
    expect(await recoverAt(atSeconds(119))).toEqual({ expired: 0, fanouts: 0, requeued: 0 });
    expect(await recoverAt(atSeconds(120))).toEqual({ expired: 0, fanouts: 0, requeued: 1 });
    expect(answersAt(wing.chat.received, discord.path)).toEqual([204]);
    expect(await ledger()).toMatchObject([{ state: 'sent', attempts: 2, lease: null }]);
  });
});

describe('retries at their due time', REAL_D1, () => {
  it('records a 503, a 500 or a 429 as pending, due after the backoff or the Retry-After, and resends it at the first recovery at or after that, never before', async () => {
    const push = await wing.pushSubscriber(['provider_a/reset']);
    const pushLimited = await wing.pushSubscriber(['provider_a/reset']);
    const discord = await wing.chatSubscriber('discord', ['provider_a/reset']);
    const feed = await wing.webSubSubscriber(`${BASE_URL}/feed.xml`);
    wing.push.answerNext(push.path, { status: 503 }, { status: 503 });
    wing.push.answerNext(pushLimited.path, { status: 429, headers: { 'retry-after': '120' } });
    wing.chat.answerNext(discord.path, { status: 500 });
    // Retry-After as an HTTP date (RFC 9110 §10.2.3): 90 s after the clock of the send.
    wing.websub.answerNext(feed.path, {
      status: 503,
      headers: { 'retry-after': new Date(T0.getTime() + 90 * SECOND_MS).toUTCString() },
    });
    expect(await wing.handle(await fannedOut())).toEqual([]);

    expect(
      (await ledger()).map(({ id, state, attempts, due_at, lease }) => ({ id, state, attempts, due_at, lease })),
    ).toEqual([
      { id: push.id, state: 'pending', attempts: 1, due_at: iso(30 * SECOND_MS), lease: null },
      { id: pushLimited.id, state: 'pending', attempts: 1, due_at: iso(120 * SECOND_MS), lease: null },
      { id: discord.id, state: 'pending', attempts: 1, due_at: iso(30 * SECOND_MS), lease: null },
      { id: feed.id, state: 'pending', attempts: 1, due_at: iso(90 * SECOND_MS), lease: null },
    ]);
    expect((await ledger()).map(({ last_error }) => last_error)).toEqual([
      expect.stringContaining('503'),
      expect.stringContaining('429'),
      expect.stringContaining('500'),
      expect.stringContaining('503'),
    ]);
    // A failure (not a pace) starts the subscriber's failing record.
    expect(await failingSince()).toEqual(
      [push, pushLimited, discord, feed].map(({ id }) => ({ id, failing_since: iso(0) })),
    );
    // The two due within a minute are carried by the queue too, at their due time; here the queue loses them, and the
    // minute cron alone sends every retry.
    expect(loseCarriers()).toMatchObject([
      { body: { type: 'deliver', subscriberIds: [push.id, discord.id], at: iso(30 * SECOND_MS) }, delaySeconds: 30 },
    ]);
    const cron = (seconds: number) => recoverAt(atSeconds(seconds), { carriers: 'lost' });

    expect(await cron(29)).toMatchObject({ requeued: 0 });
    expect(await cron(30)).toMatchObject({ requeued: 2 });
    // Its second failure: 60 s after this try.
    expect((await ledger())[0]).toMatchObject({ state: 'pending', attempts: 2, due_at: iso(90 * SECOND_MS) });
    expect(await cron(89)).toMatchObject({ requeued: 0 });
    expect(await cron(90)).toMatchObject({ requeued: 2 });
    expect(await cron(119)).toMatchObject({ requeued: 0 });
    expect(await cron(120)).toMatchObject({ requeued: 1 });
    expect(await cron(3600)).toMatchObject({ requeued: 0 });

    expect(answersAt(wing.push.received, push.path)).toEqual([503, 503, 201]);
    expect(answersAt(wing.push.received, pushLimited.path)).toEqual([429, 201]);
    expect(answersAt(wing.chat.received, discord.path)).toEqual([500, 204]);
    expect(wing.websub.deliveries.map(({ status }) => status)).toEqual([503, 200]);
    expect((await ledger()).map(({ state, attempts }) => [state, attempts])).toEqual([
      ['sent', 3],
      ['sent', 2],
      ['sent', 2],
      ['sent', 2],
    ]);
    expect((await failingSince()).every(({ failing_since }) => failing_since === null)).toBe(true);
  });

  it('carries a retry due within a minute on the queue at its due time; with the cron at the same time it still sends once', async () => {
    const carried = await wing.chatSubscriber('discord', ['provider_a/reset']);
    const both = await wing.chatSubscriber('slack', ['provider_a/reset']);
    const later = await wing.pushSubscriber(['provider_a/reset']);
    wing.chat.answerNext(carried.path, { status: 503 });
    wing.chat.answerNext(both.path, slackRateLimit(45));
    wing.push.answerNext(later.path, { status: 503, headers: { 'retry-after': '61' } });
    expect(await wing.handle(await fannedOut())).toEqual([]);
    // One message for the two due within the minute, at the later due time, delayed until then; none for the third.
    const [carrier, ...others] = loseCarriers();
    expect(others).toEqual([]);
    expect(carrier).toMatchObject({
      body: { type: 'deliver', subscriberIds: [carried.id, both.id], at: iso(45 * SECOND_MS) },
      delaySeconds: 45,
    });
    // The cron at 45 s queues the two as well; the queue then hands on the cron's message and the carrier together.
    expect(await recoverDeliveries(wing.env(), atSeconds(45))).toMatchObject({ requeued: 2 });
    expect(await wing.handle([carrier!.body, ...wing.queued.take().map(({ body }) => body)])).toEqual([]);
    expect(answersAt(wing.chat.received, carried.path)).toEqual([503, 204]);
    expect(answersAt(wing.chat.received, both.path)).toEqual([429, 200]);
    // A carrier that comes again finds them sent.
    expect(await wing.handle([carrier!.body])).toEqual([]);
    expect(wing.chat.received).toHaveLength(4);
    expect(await recoverAt(atSeconds(60))).toMatchObject({ requeued: 0 });
    expect(await recoverAt(atSeconds(61))).toMatchObject({ requeued: 1 });
    expect(answersAt(wing.push.received, later.path)).toEqual([503, 201]);
  });

  it('backs off 30 s doubling to an hour between a failing receiver’s tries', async () => {
    const discord = await wing.chatSubscriber('discord', ['provider_a/reset']);
    wing.chat.answerNext(discord.path, ...Array.from({ length: 10 }, () => ({ status: 502 })));
    expect(await wing.handle(await fannedOut())).toEqual([]);
    const waits: number[] = [];
    for (let tries = 1; tries <= 10; tries += 1) {
      const [row] = await ledger();
      const due = Date.parse(row!.due_at);
      const previous = waits.reduce((sum, wait) => sum + wait, 0);
      waits.push((due - T0.getTime()) / SECOND_MS - previous);
      // Not sent a second before it is due; sent by the first recovery at its due time (the queue's carriers lost).
      loseCarriers();
      expect(await recoverAt(new Date(due - SECOND_MS), { carriers: 'lost' })).toMatchObject({ requeued: 0 });
      expect(await recoverAt(new Date(due), { carriers: 'lost' })).toMatchObject({ requeued: 1 });
    }
    expect(waits).toEqual([30, 60, 120, 240, 480, 960, 1920, 3600, 3600, 3600]);
    expect(answersAt(wing.chat.received, discord.path)).toEqual([...Array(10).fill(502), 204]);
  });

  it('waits as a chat platform’s 429 asks (Discord’s retry_after, Slack’s Retry-After, the longer of two, at most 6 h), and counts no failure', async () => {
    const discord = await wing.chatSubscriber('discord', ['provider_a/reset']);
    const discordBoth = await wing.chatSubscriber('discord', ['provider_a/reset']);
    const slack = await wing.chatSubscriber('slack', ['provider_a/reset']);
    wing.chat.answerNext(discord.path, discordRateLimit(1.5));
    wing.chat.answerNext(discordBoth.path, {
      ...discordRateLimit(0.25),
      headers: { 'content-type': 'application/json', 'retry-after': '3' },
    });
    wing.chat.answerNext(slack.path, slackRateLimit(86_400));
    expect(await wing.handle(await fannedOut())).toEqual([]);
    // 1.5 s rounded up to whole seconds; 3 s, the longer; a day capped at 6 h.
    expect((await ledger()).map(({ due_at }) => due_at)).toEqual([
      iso(2 * SECOND_MS),
      iso(3 * SECOND_MS),
      iso(6 * HOUR_MS),
    ]);
    expect((await failingSince()).map(({ failing_since }) => failing_since)).toEqual([null, null, null]);
    loseCarriers();
    expect(await recoverAt(atSeconds(1), { carriers: 'lost' })).toMatchObject({ requeued: 0 });
    expect(await recoverAt(atSeconds(2), { carriers: 'lost' })).toMatchObject({ requeued: 1 });
    expect(await recoverAt(atSeconds(3), { carriers: 'lost' })).toMatchObject({ requeued: 1 });
    expect(await recoverAt(new Date(T0.getTime() + 6 * HOUR_MS - SECOND_MS))).toMatchObject({ requeued: 0 });
    expect(await recoverAt(new Date(T0.getTime() + 6 * HOUR_MS))).toMatchObject({ requeued: 1 });
    expect(answersAt(wing.chat.received, discord.path)).toEqual([429, 204]);
    expect(answersAt(wing.chat.received, discordBoth.path)).toEqual([429, 204]);
    expect(answersAt(wing.chat.received, slack.path)).toEqual([429, 200]);
  });

  it('records a refusal for good (a chat 400, a push 403) as failed and tries it no more; WebSub tries anything but 2xx and 410 again', async () => {
    const discord = await wing.chatSubscriber('discord', ['provider_a/reset']);
    const push = await wing.pushSubscriber(['provider_a/reset']);
    const feed = await wing.webSubSubscriber(`${BASE_URL}/feed.xml`);
    wing.chat.answerNext(discord.path, { status: 400, body: 'invalid_payload' });
    wing.push.answerNext(push.path, { status: 403 });
    wing.websub.answerNext(feed.path, { status: 400 });
    expect(await wing.handle(await fannedOut())).toEqual([]);
    expect((await ledger()).map(({ state }) => state)).toEqual(['failed', 'failed', 'pending']);
    expect(await failingSince()).toEqual([discord, push, feed].map(({ id }) => ({ id, failing_since: iso(0) })));
    expect(await recoverAt(at(60))).toMatchObject({ requeued: 1 });
    expect(answersAt(wing.chat.received, discord.path)).toEqual([400]);
    expect(answersAt(wing.push.received, push.path)).toEqual([403]);
    expect(wing.websub.deliveries.map(({ status }) => status)).toEqual([400, 200]);
  });

  it('tells a second copy of one delivery by its id: the same Idempotency-Key (chat, WebSub) and Topic (push) on a retry, another for the next transition', async () => {
    const push = await wing.pushSubscriber(['provider_a/reset']);
    const slack = await wing.chatSubscriber('slack', ['provider_a/reset']);
    const feed = await wing.webSubSubscriber(`${BASE_URL}/feed.atom`);
    wing.push.answerNext(push.path, { status: 500 });
    wing.chat.answerNext(slack.path, { status: 500 });
    wing.websub.answerNext(feed.path, { status: 500 });
    const event = reset('twice-told', { effectiveAt: at(10).toISOString() });
    expect(await wing.handle(await fannedOut(event))).toEqual([]);
    await recoverAt(atSeconds(30));
    expect(await dispatchDue(wing.env(), at(10))).toMatchObject({ enqueued: 1 });
    expect(await wing.drain()).toEqual([]);

    const pushes = await wing.push.waitFor(3, push.path);
    expect(pushes.map((received) => JSON.parse(decryptPush(received, push.keys)).transition)).toEqual([
      'announced',
      'announced',
      'effective',
    ]);
    const [first, again, effective] = pushes.map(({ headers }) => headers.topic);
    expect(first).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
    expect(again).toBe(first);
    expect(effective).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
    expect(effective).not.toBe(first);
    const keys = (received: readonly { headers: Record<string, unknown> }[]) =>
      received.map(({ headers }) => headers['idempotency-key']);
    const expected = ['twice-told/announced', 'twice-told/announced', 'twice-told/effective'];
    expect(keys(wing.chat.received)).toEqual(expected);
    expect(keys(wing.websub.deliveries)).toEqual(expected);
    expect(answersAt(wing.chat.received, slack.path)).toEqual([500, 200, 200]);
  });
});
