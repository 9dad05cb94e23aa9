import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { discordRateLimit, slackRateLimit } from '../../../tests/support/chat-receiver.ts';
import {
  answersAt,
  at,
  deliverySteps,
  deliveryWing,
  HOUR_MS,
  iso,
  MINUTE_MS,
  T0,
} from '../../../tests/support/delivery-wing.ts';
import { REAL_D1 } from '../../../tests/support/state-d1.ts';
import { BASE_URL } from '../base-url.ts';
import type { DeliveryMessage } from './messages.ts';
import { recoverDeliveries } from './recover.ts';
import { scaled } from '../../../scripts/lib/load-scaled.ts';

/**
 * The delivery wing's 24-hour window (decisions.md, "Delivery that loses nothing": each subscriber gets each
 * (event, transition) once, as long as it accepts a delivery within 24 hours of the transition; then the delivery is
 * expired, never tried again), in-process over a real local D1 and real receivers of every channel on loopback
 * (tests/support/delivery-wing.ts). The test runs the minute cron at the clock it hands it, hours in seconds.
 */

const wing = deliveryWing();
const { fannedOut, recoverAt, ledger, failingSince, subscriberIds } = deliverySteps(wing);
afterEach(() => vi.restoreAllMocks());

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
  /**
   * Each subscriber's receiver, by subscriber id: how to make it answer its next request `status`, and what it
   * answered each request of that subscriber so far, in order (its own record: by path, or by chat or topic where
   * every subscriber of the channel is sent to one address).
   */
  type Paths = Map<number, { answerNext: (answer: { status: number }) => void; requests: () => number[] }>;
  function failNext(messages: readonly DeliveryMessage[], paths: Paths, status: number) {
    for (const message of messages)
      if (message.type === 'deliver') for (const id of message.subscriberIds) paths.get(id)!.answerNext({ status });
  }
  /** The Bot API's refusal (core.telegram.org/bots/api: `{"ok":false,"error_code","description"}`). */
  const botError = (status: number) => ({
    status,
    body: {
      ok: false,
      error_code: status,
      description: status === 503 ? 'Service Unavailable' : 'Internal Server Error',
    },
  });
  /** The signed webhook `everyChannel` made last: its path and its secret. */
  let signed: { path: string; secret: string } | undefined;
  async function everyChannel(): Promise<Paths> {
    const push = await wing.pushSubscriber(['provider_a/reset']);
    const discord = await wing.chatSubscriber('discord', ['provider_a/reset']);
    const slack = await wing.chatSubscriber('slack', ['provider_a/reset']);
    const feed = await wing.webSubSubscriber(`${BASE_URL}/feed.xml`);
    const telegram = await wing.telegramSubscriber(['provider_a/reset']);
    const ntfy = await wing.ntfySubscriber(['provider_a/reset']);
    const hook = await wing.hooksSubscriber(['provider_a/reset']);
    signed = hook;
    const chat = (path: string) => ({
      answerNext: (answer: { status: number }) => wing.chat.answerNext(path, answer),
      requests: () => answersAt(wing.chat.received, path),
    });
    return new Map([
      [
        push.id,
        {
          answerNext: (answer) => wing.push.answerNext(push.path, answer),
          requests: () => answersAt(wing.push.received, push.path),
        },
      ],
      [discord.id, chat(discord.path)],
      [slack.id, chat(slack.path)],
      [
        feed.id,
        {
          answerNext: (answer) => wing.websub.answerNext(feed.path, answer),
          requests: () => answersAt(wing.websub.deliveries, feed.path),
        },
      ],
      [
        telegram.id,
        {
          // Every chat's messages go to the one `sendMessage` path: the receiver answers and records them by chat.
          answerNext: ({ status }) => wing.telegram.answerNext(telegram.chatId, botError(status)),
          requests: () =>
            wing.telegram.received
              .filter(({ method, body }) => method === 'sendMessage' && body.chat_id === telegram.chatId)
              .map(({ status }) => status),
        },
      ],
      [
        ntfy.id,
        {
          // Every topic's messages go to its server's root: the only topic on the receiver, told apart by its body.
          answerNext: (answer) => wing.ntfy.answerNext('/', answer),
          requests: () =>
            wing.ntfy.received.filter(({ body }) => body?.topic === ntfy.topic).map(({ status }) => status),
        },
      ],
      [
        hook.id,
        {
          // A receiver that is down, with no Retry-After: the wing's own backoff, as for every other channel.
          answerNext: ({ status }) => wing.hooks.answerNext(hook.path, { status }),
          requests: () => answersAt(wing.hooks.deliveries, hook.path),
        },
      ],
    ]);
  }
  /**
   * The signed webhook's deliveries, all of one delivery: the same `webhook-id` on every try, and the one accepted
   * verified by the Standard Webhooks reference library under the hook's secret, at the receiver as it arrived and
   * again here.
   */
  function expectOneSignedDelivery({ path, secret }: { path: string; secret: string }) {
    const deliveries = wing.hooks.deliveries.filter((delivery) => delivery.path === path);
    expect(deliveries.length).toBeGreaterThan(20);
    const ids = deliveries.map(({ headers }) => headers['webhook-id']);
    expect(ids[0]).toMatch(/^.+\/.+$/);
    expect(new Set(ids)).toEqual(new Set([ids[0]]));
    const accepted = deliveries.at(-1)!;
    expect(accepted.status).toBe(200);
    expect(accepted.verified.ok).toBe(true);
    expect(new Webhook(secret).verify(accepted.body, accepted.headers as Record<string, string>)).toEqual(
      JSON.parse(accepted.body),
    );
  }

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

      for (const { requests } of paths.values()) {
        const answers = requests();
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
      expectOneSignedDelivery(signed!);
    },
    scaled(60_000),
  );

  it(
    'records a delivery still refused 24 hours after its transition was found as expired, and never tries it again',
    async () => {
      const paths = await everyChannel();
      wing.queued.sent.push(...(await fannedOut()).map((body) => ({ body, delaySeconds: undefined })));
      await handleAll(() => true, paths);
      await minuteCron(26 * 60, () => true, paths);
      const tries = [...paths.values()].map(({ requests }) => requests().length);
      expect(tries.every((count) => count > 20)).toBe(true);
      const rows = await wing.rows<{ state: string; done_at: string }>('SELECT state, done_at FROM deliveries');
      expect(rows.map(({ state }) => state)).toEqual(Array.from(paths.keys(), () => 'expired'));
      expect(rows.length).toBe(7);
      // The last try, in the window's last minute, failed too.
      for (const { done_at } of rows) expect(done_at).toBe(iso(24 * HOUR_MS - MINUTE_MS));
      // Days later, nothing more: not a try, not a message.
      expect(await recoverAt(at(3 * 24 * 60))).toMatchObject({ requeued: 0 });
      expect([...paths.values()].map(({ requests }) => requests().length)).toEqual(tries);
      // Every try was refused, the signed webhook's all of one delivery (one `webhook-id`).
      for (const { requests } of paths.values()) expect(requests().every((status) => status >= 500)).toBe(true);
      expect(new Set(wing.hooks.deliveries.map(({ headers }) => headers['webhook-id'])).size).toBe(1);
      // Failing since T0, a day: short of the 7 days that drop a subscriber.
      expect((await subscriberIds()).length).toBe(7);
    },
    scaled(60_000),
  );

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
