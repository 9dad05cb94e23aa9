import { afterEach, describe, expect, it, vi } from 'vitest';
import { discordRateLimit, slackRateLimit } from '../../../tests/support/chat-receiver.ts';
import {
  at,
  atSeconds,
  DEAD_LETTER_QUEUE_NAME,
  deliveryWing,
  HOUR_MS,
  MINUTE_MS,
  T0,
  type WingEnv,
} from '../../../tests/support/delivery-wing.ts';
import { decryptPush } from '../../../tests/support/push-receiver.ts';
import { recordingQueue } from '../../../tests/support/recording-queue.ts';
import { REAL_D1 } from '../../../tests/support/state-d1.ts';
import type { Event } from '../../core/schemas.ts';
import { makeEvent } from '../../core/test-events.ts';
import { BASE_URL } from '../base-url.ts';
import { deliver } from './deliver.ts';
import { dispatchDue } from './dispatch.ts';
import type { DeliverMessage, DeliveryMessage } from './messages.ts';
import { recoverDeliveries } from './recover.ts';
import { deleteSubscriber } from './subscribers.ts';

/**
 * The delivery wing's promise (decisions.md, "Delivery that loses nothing"), in-process over a real local D1 and
 * real receivers on loopback (tests/support/delivery-wing.ts): each subscriber whose topics match gets each
 * (event, transition) once, as long as it accepts a delivery within 24 hours; a message handled twice, a message
 * lost, a sender that died, a dead letter and a receiver failing for hours lose nothing and send nothing twice. The
 * test hands every function its clock and moves it by minutes and hours; expected times are written from the
 * decided limits (30 s doubling to an hour, Retry-After up to 6 h, a queued hold of 5 minutes, a sender's of 2).
 */

const wing = deliveryWing();
afterEach(() => vi.restoreAllMocks());

const SECOND_MS = 1000;
const iso = (milliseconds: number) => new Date(T0.getTime() + milliseconds).toISOString();
const reset = (id: string, overrides: Partial<Event> = {}) =>
  makeEvent({ id, provider: 'provider_a', kind: 'reset', announcedAt: at(-1).toISOString(), ...overrides });

/**
 * The history's first dispatch, then `event` published and dispatched at `T0` and its one fan-out handed to the
 * worker: the `deliver` messages it queued, taken from the queue (the test hands them on, or loses them).
 */
async function fannedOut(event: Event = reset('news'), env: WingEnv = wing.env()): Promise<DeliverMessage[]> {
  wing.published = [makeEvent({ id: 'history', announcedAt: at(-3000).toISOString() })];
  await dispatchDue(env, at(-30));
  wing.published.push(event);
  expect(await dispatchDue(env, T0)).toMatchObject({ enqueued: 1 });
  expect(
    await wing.handle(
      wing.queued.take().map(({ body }) => body),
      { env },
    ),
  ).toEqual([]);
  const delivers = wing.queued.take().map(({ body }) => body);
  expect(delivers.every((body) => body.type === 'deliver')).toBe(true);
  return delivers as DeliverMessage[];
}

/**
 * A retry due within a minute is also carried by the queue, with a delay (deliver.ts): a `deliver` message sent with
 * `delaySeconds`. The queue may lose it; the cron still queues every retry at its due time.
 */
const isCarried = ({ delaySeconds }: { delaySeconds: number | undefined }) => (delaySeconds ?? 0) > 0;

/**
 * The minute cron's recovery at `now`, and the worker's handling of what it queued and what that queues in turn. The
 * queue carries the soon retries at once (their clock is their due time), unless `carriers` is `lost`: the cron alone.
 */
async function recoverAt(
  now: Date,
  { env = wing.env(), carriers = 'carried' }: { env?: WingEnv; carriers?: 'carried' | 'lost' } = {},
) {
  const result = await recoverDeliveries(env, now);
  const next = () =>
    wing.queued
      .take()
      .filter((message) => carriers === 'carried' || !isCarried(message))
      .map(({ body }) => body);
  for (let messages = next(); messages.length > 0; messages = next())
    expect(await wing.handle(messages, { env })).toEqual([]);
  return result;
}

/** Forgets the carried retries queued so far (a queue that lost them); returns them. */
const loseCarriers = () => {
  const carried = wing.queued.sent.filter(isCarried);
  wing.queued.sent.splice(0, wing.queued.sent.length, ...wing.queued.sent.filter((message) => !isCarried(message)));
  return carried;
};

interface LedgerRow {
  id: number;
  state: string;
  attempts: number;
  due_at: string;
  lease: string | null;
  last_error: string | null;
}
const ledger = () =>
  wing.rows<LedgerRow>(
    'SELECT subscriber_id AS id, state, attempts, due_at, lease, last_error FROM deliveries ORDER BY subscriber_id',
  );
const failingSince = () =>
  wing.rows<{ id: number; failing_since: string | null }>('SELECT id, failing_since FROM subscribers ORDER BY id');
const subscriberIds = async () =>
  (await wing.rows<{ id: number }>('SELECT id FROM subscribers ORDER BY id')).map(({ id }) => id);
/** What a receiver answered at `path`, in order. */
const answersAt = (received: readonly { path: string; status: number }[], path: string) =>
  received.filter((request) => request.path === path).map(({ status }) => status);

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
      expect.any(String),
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

describe('within 24 hours of the transition', REAL_D1, () => {
  /**
   * The minute cron until `untilMinutes`, run at each minute at which a pending delivery is due (a run at any other
   * minute finds nothing to queue), each run's messages handed to the worker. Every request to a receiver while
   * `failing(now)` holds is answered 503 (500 every other run) before it reaches it.
   */
  async function minuteCron(untilMinutes: number, failing: (now: Date) => boolean, paths: Paths) {
    for (let run = 0; run < 200; run += 1) {
      const [{ next } = { next: null }] = await wing.rows<{ next: string | null }>(
        "SELECT min(due_at) AS next FROM deliveries WHERE state = 'pending'",
      );
      if (next === null) return;
      const minute = new Date(Math.ceil(Date.parse(next) / MINUTE_MS) * MINUTE_MS);
      if (minute > at(untilMinutes)) return;
      await recoverDeliveries(wing.env(), minute);
      await handleAll(failing, paths, run % 2 === 0 ? 503 : 500);
    }
    throw new Error('the deliveries were still pending after 200 cron runs');
  }
  /**
   * Hands the queue's messages to the worker, and what they queue in turn (the carried retries, at their due time),
   * each request to a receiver answered `status` while `failing` holds at the message's clock.
   */
  async function handleAll(failing: (now: Date) => boolean, paths: Paths, status = 503) {
    for (let messages = wing.queued.take(); messages.length > 0; messages = wing.queued.take()) {
      const bodies = messages.map(({ body }) => body);
      failNext(
        bodies.filter((body) => body.type === 'deliver' && failing(new Date(body.at))),
        paths,
        status,
      );
      expect(await wing.handle(bodies)).toEqual([]);
    }
  }
  type Paths = Map<number, { path: string; answerNext: (path: string, answer: { status: number }) => void }>;
  function failNext(messages: readonly DeliveryMessage[], paths: Paths, status: number) {
    for (const message of messages)
      if (message.type === 'deliver')
        for (const id of message.subscriberIds) {
          const target = paths.get(id)!;
          target.answerNext(target.path, { status });
        }
  }
  async function everyChannel(): Promise<Paths> {
    const push = await wing.pushSubscriber(['provider_a/reset']);
    const discord = await wing.chatSubscriber('discord', ['provider_a/reset']);
    const slack = await wing.chatSubscriber('slack', ['provider_a/reset']);
    const feed = await wing.webSubSubscriber(`${BASE_URL}/feed.xml`);
    const chat = (path: string, answer: { status: number }) => wing.chat.answerNext(path, answer);
    return new Map([
      [push.id, { path: push.path, answerNext: (path, answer) => wing.push.answerNext(path, answer) }],
      [discord.id, { path: discord.path, answerNext: chat }],
      [slack.id, { path: slack.path, answerNext: chat }],
      [feed.id, { path: feed.path, answerNext: (path, answer) => wing.websub.answerNext(path, answer) }],
    ]);
  }
  const requestsTo = (path: string) => [
    ...answersAt(wing.push.received, path),
    ...answersAt(wing.chat.received, path),
    ...answersAt(wing.websub.deliveries, path),
  ];

  it.each([
    ['23 hours', 23 * 60],
    ['23 hours and 50 minutes', 23 * 60 + 50],
  ])(
    'delivers exactly once to receivers of every channel that fail for %s and then answer',
    async (_name, minutes) => {
      const paths = await everyChannel();
      const recovered = at(minutes);
      const failing = (now: Date) => now < recovered;
      wing.queued.sent.push(...(await fannedOut()).map((body) => ({ body, delaySeconds: undefined })));
      await handleAll(failing, paths);
      await minuteCron(26 * 60, failing, paths);

      for (const { path } of paths.values()) {
        const answers = requestsTo(path);
        // Tried all along (30 s doubling to an hour: 20 tries and more in 23 hours), then delivered, then left alone.
        expect(answers.length).toBeGreaterThan(20);
        expect(answers.slice(0, -1).every((status) => status >= 500)).toBe(true);
        expect(answers.at(-1)! < 300).toBe(true);
      }
      const rows = await wing.rows<{ state: string; expires_at: string; done_at: string }>(
        'SELECT state, expires_at, done_at FROM deliveries',
      );
      for (const row of rows) {
        expect(row.state).toBe('sent');
        expect(row.expires_at).toBe(iso(24 * HOUR_MS));
        expect(Date.parse(row.done_at)).toBeGreaterThanOrEqual(recovered.getTime());
        expect(Date.parse(row.done_at)).toBeLessThan(T0.getTime() + 24 * HOUR_MS);
      }
      expect((await failingSince()).every(({ failing_since }) => failing_since === null)).toBe(true);
    },
    60_000,
  );

  it('records a delivery still refused 24 hours after its transition was found as expired, and never tries it again', async () => {
    const paths = await everyChannel();
    wing.queued.sent.push(...(await fannedOut()).map((body) => ({ body, delaySeconds: undefined })));
    await handleAll(() => true, paths);
    await minuteCron(26 * 60, () => true, paths);
    const tries = [...paths.values()].map(({ path }) => requestsTo(path).length);
    const rows = await wing.rows<{ state: string; done_at: string }>('SELECT state, done_at FROM deliveries');
    expect(rows.map(({ state }) => state)).toEqual(['expired', 'expired', 'expired', 'expired']);
    // The last try, in the window's last minute, failed too.
    for (const { done_at } of rows) expect(done_at).toBe(iso(24 * HOUR_MS - MINUTE_MS));
    // Days later, nothing more: not a try, not a message.
    expect(await recoverAt(at(3 * 24 * 60))).toMatchObject({ requeued: 0 });
    expect([...paths.values()].map(({ path }) => requestsTo(path).length)).toEqual(tries);
    // Failing since T0, a day: short of the 7 days that drop a subscriber.
    expect((await subscriberIds()).length).toBe(4);
  }, 60_000);

  it('tries once more in the window’s last minute a delivery whose next try would fall past it (paced for 6 hours at hour 20), and expires it only if that fails', async () => {
    const discord = await wing.chatSubscriber('discord', ['provider_a/reset']);
    const slack = await wing.chatSubscriber('slack', ['provider_a/reset']);
    // A Retry-After of 2 minutes: no queue carries it, the cron does.
    const unavailable = { status: 503, headers: { 'retry-after': '120' } };
    wing.chat.answerNext(discord.path, unavailable, discordRateLimit(6 * 60 * 60), { status: 502 });
    wing.chat.answerNext(slack.path, unavailable, slackRateLimit(6 * 60 * 60));
    expect(await wing.handle(await fannedOut())).toEqual([]);
    // No cron ran for 20 hours; the first one tries them, and is asked to wait until hour 26, past the window.
    expect(await recoverAt(at(20 * 60))).toMatchObject({ requeued: 2 });
    const lastMinute = iso(24 * HOUR_MS - MINUTE_MS);
    expect((await ledger()).map(({ state, due_at }) => [state, due_at])).toEqual([
      ['pending', lastMinute],
      ['pending', lastMinute],
    ]);
    expect(await recoverAt(at(24 * 60 - 2))).toMatchObject({ requeued: 0 });
    expect(await recoverAt(at(24 * 60 - 1))).toMatchObject({ requeued: 2 });
    expect((await ledger()).map(({ state, attempts }) => [state, attempts])).toEqual([
      ['expired', 3],
      ['sent', 3],
    ]);
    expect(await recoverAt(at(27 * 60))).toMatchObject({ expired: 0, requeued: 0 });
    expect(answersAt(wing.chat.received, discord.path)).toEqual([503, 429, 502]);
    expect(answersAt(wing.chat.received, slack.path)).toEqual([503, 429, 200]);
  });

  it('records as expired, at the first recovery after the window, a delivery no cron could queue in time', async () => {
    const slack = await wing.chatSubscriber('slack', ['provider_a/reset']);
    wing.chat.answerNext(slack.path, { status: 503, headers: { 'retry-after': '120' } });
    expect(await wing.handle(await fannedOut())).toEqual([]);
    // The cron down for a day: due 2 minutes after the transition, and found only when its 24 hours are over.
    expect(await recoverDeliveries(wing.env(), at(24 * 60))).toEqual({ expired: 1, fanouts: 0, requeued: 0 });
    expect(wing.queued.sent).toEqual([]);
    expect(await ledger()).toMatchObject([{ state: 'expired', attempts: 1, lease: null }]);
    expect(await wing.rows('SELECT done_at FROM deliveries')).toEqual([{ done_at: iso(24 * HOUR_MS) }]);
    expect(answersAt(wing.chat.received, slack.path)).toEqual([503]);
  });
});

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

describe('a queue that refuses a send', REAL_D1, () => {
  const refusing = () => wing.env({ DELIVERY_QUEUE: recordingQueue({ failing: true }).queue as unknown as Queue });

  it('loses no fan-out when the dispatch could not queue it: the cron hands it on once its hold ends', async () => {
    const discord = await wing.chatSubscriber('discord', ['provider_a/reset']);
    wing.published = [makeEvent({ id: 'history', announcedAt: at(-3000).toISOString() })];
    await dispatchDue(wing.env(), at(-30));
    wing.published.push(reset('unqueued'));
    await expect(dispatchDue(refusing(), T0)).rejects.toThrow(/queue down/);
    // Claimed all the same: a later dispatch does not fan it out a second time.
    expect(await dispatchDue(wing.env(), at(1))).toMatchObject({ enqueued: 0 });
    expect(await recoverAt(atSeconds(299))).toMatchObject({ fanouts: 0 });
    expect(await recoverAt(atSeconds(300))).toMatchObject({ fanouts: 1 });
    expect(answersAt(wing.chat.received, discord.path)).toEqual([204]);
  });

  it('loses no delivery when a fan-out could not queue its messages: the retried fan-out does nothing, the cron re-queues', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const slack = await wing.chatSubscriber('slack', ['provider_a/reset']);
    wing.published = [makeEvent({ id: 'history', announcedAt: at(-3000).toISOString() })];
    await dispatchDue(wing.env(), at(-30));
    wing.published.push(reset('page'));
    await dispatchDue(wing.env(), T0);
    const fanout = wing.queued.take().map(({ body }) => body);
    expect(await wing.handle(fanout, { env: refusing() })).toEqual(fanout);
    // The queue tries the message again: its page was taken, so it does nothing.
    expect(await wing.handle(fanout)).toEqual([]);
    expect(wing.queued.sent).toEqual([]);
    expect(await recoverAt(atSeconds(299))).toMatchObject({ requeued: 0 });
    expect(await recoverAt(atSeconds(300))).toMatchObject({ fanouts: 0, requeued: 1 });
    expect(answersAt(wing.chat.received, slack.path)).toEqual([200]);
  });

  it('gives back at once what a recovery could not queue, for the next one to take', async () => {
    const discord = await wing.chatSubscriber('discord', ['provider_a/reset']);
    await fannedOut();
    await expect(recoverDeliveries(refusing(), at(5))).rejects.toThrow(/queue down/);
    expect(await recoverAt(at(5))).toMatchObject({ requeued: 1 });
    expect(answersAt(wing.chat.received, discord.path)).toEqual([204]);
  });
});

describe('the dead-letter queue, read back', REAL_D1, () => {
  it('gives up the hold of a dead deliver or fan-out message at once, so the next recovery queues its work again, and counts it', async () => {
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const discord = await wing.chatSubscriber('discord', ['provider_a/reset']);
    const delivers = await fannedOut();
    // Held by the message for 5 minutes: the cron leaves it alone…
    expect(await recoverAt(T0)).toMatchObject({ requeued: 0 });
    // …until the message reaches the dead-letter queue (its retries exhausted) and is read back.
    expect(await wing.handle(delivers, { queue: DEAD_LETTER_QUEUE_NAME })).toEqual([]);
    expect(wing.chat.received).toEqual([]);
    expect(await wing.rows("SELECT value FROM dispatch_state WHERE name = 'dead-letters'")).toEqual([{ value: '1' }]);
    expect(await recoverAt(T0)).toMatchObject({ requeued: 1 });
    expect(answersAt(wing.chat.received, discord.path)).toEqual([204]);

    // A fan-out message, dead before it ran.
    wing.published.push(reset('second'));
    expect(await dispatchDue(wing.env(), at(1))).toMatchObject({ enqueued: 1 });
    const fanout = wing.queued.take().map(({ body }) => body);
    expect(await recoverAt(at(1))).toMatchObject({ fanouts: 0 });
    expect(await wing.handle(fanout, { queue: DEAD_LETTER_QUEUE_NAME })).toEqual([]);
    expect(await wing.rows("SELECT value FROM dispatch_state WHERE name = 'dead-letters'")).toEqual([{ value: '2' }]);
    expect(await recoverAt(at(1))).toMatchObject({ fanouts: 1, requeued: 0 });
    expect(answersAt(wing.chat.received, discord.path)).toEqual([204, 204]);
    expect(wing.chat.received.map(({ headers }) => headers['idempotency-key'])).toEqual([
      'news/announced',
      'second/announced',
    ]);
    expect(warned).toHaveBeenCalledTimes(2);
  });

  it('leaves alone a hold that was handed on before its dead letter came back', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await wing.chatSubscriber('discord', ['provider_a/reset']);
    const delivers = await fannedOut();
    // The cron took the delivery as lost and queued it again; that message is on its way, not yet handled.
    expect(await recoverDeliveries(wing.env(), at(5))).toMatchObject({ requeued: 1 });
    const requeued = wing.queued.take().map(({ body }) => body);
    expect(await wing.handle(delivers, { queue: DEAD_LETTER_QUEUE_NAME })).toEqual([]);
    // The new hold stands: the cron does not queue it a second time.
    expect(await recoverAt(at(5))).toMatchObject({ requeued: 0 });
    expect(await wing.handle(requeued)).toEqual([]);
    expect(wing.chat.received).toHaveLength(1);
  });
});

describe('the ledger’s age', REAL_D1, () => {
  it('deletes finished rows done more than 15 days ago at the minute’s recovery, keeps younger ones and every pending one', async () => {
    const { id } = await wing.chatSubscriber('discord', ['provider_a/reset']);
    const day = 24 * HOUR_MS;
    const insert = wing.db.prepare(
      `INSERT INTO deliveries (subscriber_id, event_id, transition, state, due_at, expires_at, done_at)
       VALUES (?1, ?2, 'announced', ?3, ?4, ?5, ?6)`,
    );
    const rows = [
      ['sent-16d', 'sent', -16 * day],
      ['failed-16d', 'failed', -16 * day],
      ['expired-16d', 'expired', -16 * day],
      ['sent-15d', 'sent', -15 * day],
      ['sent-14d', 'sent', -14 * day],
    ] as const;
    await wing.db.batch(
      rows.map(([event, state, done]) => insert.bind(id, event, state, iso(done - day), iso(done + day), iso(done))),
    );
    await wing.db
      .prepare(
        `INSERT INTO deliveries (subscriber_id, event_id, transition, due_at, expires_at)
         VALUES (?1, 'pending-later', 'announced', ?2, ?3)`,
      )
      .bind(id, iso(HOUR_MS), iso(day))
      .run();
    await recoverAt(T0);
    expect(
      (await wing.rows<{ event_id: string }>('SELECT event_id FROM deliveries ORDER BY 1')).map(
        ({ event_id }) => event_id,
      ),
    ).toEqual(['pending-later', 'sent-14d', 'sent-15d']);
  });
});
