import { topicsOf } from '../../core/delivery/topics.ts';
import { BASE_URL } from '../base-url.ts';
import {
  type DeliveryMessage,
  deliverMessages,
  type DeliveryProducer,
  type FanoutMessage,
  sendAll,
} from './messages.ts';
import { DELIVER_CHUNK_SIZE, DELIVERY_WINDOW_MS, FANOUT_PAGE_SIZE, QUEUED_LEASE_MS } from './policy.ts';

/**
 * One page of a fan-out (docs/delivery.md, "The pipeline"): the next subscribers of the (event, transition)'s
 * topics, in id order after where the fan-out got to, each given a ledger row (due now, held by this page's
 * `deliver` messages), and the next page's `fanout` when the page was full. How far it got is kept in its claim, so
 * a page is never fanned out twice and a lost message costs a lease's wait, never a subscriber.
 */

export interface FanOutBindings {
  DB: D1Database;
  DELIVERY_QUEUE: Pick<DeliveryProducer, 'sendBatch'>;
}

export async function fanOut(env: FanOutBindings, message: FanoutMessage, now: Date): Promise<void> {
  const db = env.DB;
  const { event, transition } = message;
  const leaseUntil = new Date(now.getTime() + QUEUED_LEASE_MS).toISOString();
  const next = crypto.randomUUID();
  // The fan-out is this message's while it holds the lease, or anybody's once the lease is over.
  const taken = await db
    .prepare(
      `UPDATE notifications SET lease = ?3, lease_until = ?4
       WHERE event_id = ?1 AND transition = ?2 AND fanout_done = 0 AND (lease = ?5 OR lease_until <= ?6)
       RETURNING fanout_after AS after, found_at AS foundAt`,
    )
    .bind(event.id, transition, next, leaseUntil, message.lease, now.toISOString())
    .first<{ after: number; foundAt: string }>();
  if (taken === null) return;
  const { results: page } = await db
    .prepare(
      `SELECT DISTINCT t.subscriber_id AS id FROM subscriber_topics t JOIN subscribers s ON s.id = t.subscriber_id
       WHERE t.topic IN (SELECT value FROM json_each(?1)) AND t.subscriber_id > ?2
         AND (s.expires_at IS NULL OR s.expires_at > ?3)
       ORDER BY t.subscriber_id LIMIT ?4`,
    )
    .bind(JSON.stringify(topicsOf(event, BASE_URL)), taken.after, now.toISOString(), FANOUT_PAGE_SIZE)
    .all<{ id: number }>();
  const ids = page.map((row) => row.id);
  const done = ids.length < FANOUT_PAGE_SIZE;
  const held = crypto.randomUUID();
  const expiresAt = new Date(Date.parse(taken.foundAt) + DELIVERY_WINDOW_MS).toISOString();
  const [inserted] = await db.batch<{ id: number }>([
    db
      .prepare(
        `INSERT INTO deliveries (subscriber_id, event_id, transition, due_at, expires_at, lease, lease_until)
         SELECT value, ?2, ?3, ?4, ?5, ?6, ?7 FROM json_each(?1) WHERE true
         ON CONFLICT DO NOTHING RETURNING subscriber_id AS id`,
      )
      .bind(JSON.stringify(ids), event.id, transition, now.toISOString(), expiresAt, held, leaseUntil),
    db
      .prepare(
        `UPDATE notifications SET fanout_after = ?3, fanout_done = ?4, lease = CASE WHEN ?4 THEN NULL ELSE lease END,
           lease_until = CASE WHEN ?4 THEN NULL ELSE lease_until END
         WHERE event_id = ?1 AND transition = ?2 AND lease = ?5`,
      )
      .bind(event.id, transition, ids.at(-1) ?? taken.after, done ? 1 : 0, next),
  ]);
  const messages: DeliveryMessage[] = [];
  if (!done) messages.push({ ...message, lease: next, at: now.toISOString() });
  const claimed = (inserted?.results ?? []).map((row) => row.id).sort((a, b) => a - b);
  messages.push(...deliverMessages(message, claimed, DELIVER_CHUNK_SIZE, held, now));
  await sendAll(env.DELIVERY_QUEUE, messages);
}
