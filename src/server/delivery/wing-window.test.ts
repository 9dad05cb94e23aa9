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
