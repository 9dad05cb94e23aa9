import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  answersAt,
  at,
  atSeconds,
  DEAD_LETTER_QUEUE_NAME,
  deliverySteps,
  deliveryWing,
  HOUR_MS,
  iso,
  resetEvent as reset,
  T0,
} from '../../../tests/support/delivery-wing.ts';
import { recordingQueue } from '../../../tests/support/recording-queue.ts';
import { REAL_D1 } from '../../../tests/support/state-d1.ts';
import { makeEvent } from '../../core/test-events.ts';
import { dispatchDue } from './dispatch.ts';
import { recoverDeliveries } from './recover.ts';

/**
 * The delivery wing's recovery (decisions.md, "Delivery that loses nothing"), in-process over a real local D1 and
 * real receivers on loopback (tests/support/delivery-wing.ts): a queue that refuses a send, the dead-letter queue read
 * back, and the ledger's age. Whatever was held comes back to the minute cron once its hold ends, or at once.
 */

const wing = deliveryWing();
const { fannedOut, recoverAt } = deliverySteps(wing);
afterEach(() => vi.restoreAllMocks());

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
