import type { Transition } from '../../core/push/due.ts';
import type { Event } from '../../core/schemas.ts';
import { MS_PER_DAY } from '../../core/ordering.ts';
import { type DeliveryMessage, deliverMessages, type DeliveryProducer, sendAll } from './messages.ts';
import {
  DELIVER_CHUNK_SIZE,
  LEDGER_KEPT_DAYS,
  LEDGER_PRUNE_SLICE,
  QUEUED_LEASE_MS,
  REQUEUE_PER_RUN,
} from './policy.ts';

/**
 * The minute cron's half of the promise (docs/delivery.md, "The promise"): whatever a database fault, a dropped
 * queue message, a dead isolate or a failing receiver left behind is found here and queued again. Each run
 * - records as expired the deliveries whose window ended;
 * - hands on every fan-out not done whose hold ended, from where it got to;
 * - queues every delivery that is due, not done and not held (a hold ends with its lease), at most 10,000 a run;
 * - prunes the ledger's old rows and the subscribers whose subscription ended.
 */

export interface RecoverBindings {
  DB: D1Database;
  DELIVERY_QUEUE: Pick<DeliveryProducer, 'sendBatch'>;
}

export interface RecoverResult {
  expired: number;
  fanouts: number;
  requeued: number;
}

export async function recoverDeliveries(env: RecoverBindings, now: Date): Promise<RecoverResult> {
  const db = env.DB;
  const nowText = now.toISOString();
  const lease = crypto.randomUUID();
  const leaseUntil = new Date(now.getTime() + QUEUED_LEASE_MS).toISOString();
  // One transaction (a D1 batch); each statement's rows are read as what its RETURNING names.
  const [expired, fanouts, requeued] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `UPDATE deliveries SET state = 'expired', done_at = ?1, lease = NULL, lease_until = NULL
         WHERE state = 'pending' AND expires_at <= ?1`,
      )
      .bind(nowText),
    db
      .prepare(
        `UPDATE notifications SET lease = ?2, lease_until = ?3
         WHERE fanout_done = 0 AND event IS NOT NULL AND (lease_until IS NULL OR lease_until <= ?1)
         RETURNING event_id, transition, event`,
      )
      .bind(nowText, lease, leaseUntil),
    db
      .prepare(
        `UPDATE deliveries SET lease = ?2, lease_until = ?3
         WHERE (subscriber_id, event_id, transition) IN (
           SELECT subscriber_id, event_id, transition FROM deliveries
           WHERE state = 'pending' AND due_at <= ?1 AND (lease_until IS NULL OR lease_until <= ?1)
           ORDER BY due_at LIMIT ?4)
         RETURNING subscriber_id, event_id, transition`,
      )
      .bind(nowText, lease, leaseUntil, REQUEUE_PER_RUN),
  ]);
  const messages: DeliveryMessage[] = (fanouts?.results ?? []).map((row) => ({
    type: 'fanout',
    event: JSON.parse(String(row['event'])) as Event,
    transition: row['transition'] as Transition,
    lease,
    at: nowText,
  }));
  const rows = (requeued?.results ?? []).map((row) => ({
    subscriber_id: Number(row['subscriber_id']),
    event_id: String(row['event_id']),
    transition: row['transition'] as Transition,
  }));
  messages.push(...(await deliveriesToQueue(db, rows, lease, now)));
  try {
    await sendAll(env.DELIVERY_QUEUE, messages);
  } catch (error) {
    // Given back at once: the next minute's run tries again rather than waiting for the leases to end.
    await db.batch([
      db.prepare('UPDATE deliveries SET lease = NULL, lease_until = NULL WHERE lease = ?1').bind(lease),
      db.prepare('UPDATE notifications SET lease = NULL, lease_until = NULL WHERE lease = ?1').bind(lease),
    ]);
    throw error;
  }
  await prune(db, now);
  return {
    expired: expired?.meta.changes ?? 0,
    fanouts: fanouts?.results.length ?? 0,
    requeued: rows.length,
  };
}

/** The requeued rows as `deliver` messages, each (event, transition)'s event read from its claim. */
async function deliveriesToQueue(
  db: D1Database,
  rows: readonly { subscriber_id: number; event_id: string; transition: Transition }[],
  lease: string,
  now: Date,
): Promise<DeliveryMessage[]> {
  if (rows.length === 0) return [];
  const byPair = new Map<string, { eventId: string; transition: Transition; ids: number[] }>();
  for (const row of rows) {
    const key = `${row.event_id}/${row.transition}`;
    const group = byPair.get(key) ?? { eventId: row.event_id, transition: row.transition, ids: [] };
    group.ids.push(row.subscriber_id);
    byPair.set(key, group);
  }
  const { results } = await db
    .prepare(
      `SELECT event_id, transition, event FROM notifications WHERE event IS NOT NULL AND event_id || '/' || transition
       IN (SELECT value FROM json_each(?1))`,
    )
    .bind(JSON.stringify([...byPair.keys()]))
    .all<{ event_id: string; transition: Transition; event: string }>();
  return results.flatMap((row) => {
    const group = byPair.get(`${row.event_id}/${row.transition}`)!;
    const pair = { event: JSON.parse(row.event) as Event, transition: row.transition };
    return deliverMessages(
      pair,
      group.ids.sort((a, b) => a - b),
      DELIVER_CHUNK_SIZE,
      lease,
      now,
    );
  });
}

/** Old finished ledger rows, and subscribers whose subscription ended, in bounded slices. */
async function prune(db: D1Database, now: Date): Promise<void> {
  const cutoff = new Date(now.getTime() - LEDGER_KEPT_DAYS * MS_PER_DAY).toISOString();
  await db.batch([
    db
      .prepare(
        `DELETE FROM deliveries WHERE (subscriber_id, event_id, transition) IN (
           SELECT subscriber_id, event_id, transition FROM deliveries WHERE state <> 'pending' AND done_at < ?1
           ORDER BY done_at LIMIT ?2)`,
      )
      .bind(cutoff, LEDGER_PRUNE_SLICE),
    db
      .prepare(
        `DELETE FROM subscribers WHERE id IN (
           SELECT id FROM subscribers WHERE expires_at IS NOT NULL AND expires_at <= ?1 LIMIT ?2)`,
      )
      .bind(now.toISOString(), LEDGER_PRUNE_SLICE),
  ]);
}
