import { MS_PER_DAY } from '../../core/ordering.ts';
import { FAILING_LIMIT_MS, LEDGER_KEPT_DAYS, LEDGER_PRUNE_SLICE } from '../push/delivery-policy.ts';

/**
 * The WebSub tables in D1 (migrations/0006_websub.sql): verified subscriptions and the delivery ledger. Every
 * statement binds its values; lists travel as one JSON parameter (`json_each`).
 */

export interface StoredSubscription {
  id: number;
  topic: string;
  callback: string;
  secret: string | null;
  expiresAt: string;
}

const json = (values: readonly number[]) => JSON.stringify(values);

/** A verified subscription: made, or renewed (its secret and lease replaced, its failures forgotten). */
export async function saveWebSubSubscription(
  db: D1Database,
  subscription: { topic: string; callback: string; secret: string | null; expiresAt: Date },
): Promise<void> {
  await db
    .prepare(
      `INSERT INTO websub_subscriptions (topic, callback, secret, expires_at) VALUES (?1, ?2, ?3, ?4)
       ON CONFLICT (topic, callback) DO UPDATE SET
         secret = excluded.secret, expires_at = excluded.expires_at, failing_since = NULL`,
    )
    .bind(subscription.topic, subscription.callback, subscription.secret, subscription.expiresAt.toISOString())
    .run();
}

/** A verified unsubscription: the row goes, its ledger with it (cascade). */
export async function deleteWebSubSubscription(db: D1Database, topic: string, callback: string): Promise<void> {
  await db.prepare('DELETE FROM websub_subscriptions WHERE topic = ?1 AND callback = ?2').bind(topic, callback).run();
}

/** One page of the live subscriptions to `topics`, by id after `afterId`. */
export async function subscriptionPage(
  db: D1Database,
  topics: readonly string[],
  afterId: number,
  now: Date,
  limit: number,
): Promise<number[]> {
  const { results } = await db
    .prepare(
      `SELECT id FROM websub_subscriptions
       WHERE topic IN (SELECT value FROM json_each(?1)) AND id > ?2 AND expires_at > ?3 ORDER BY id LIMIT ?4`,
    )
    .bind(JSON.stringify(topics), afterId, now.toISOString(), limit)
    .all<{ id: number }>();
  return results.map((row) => row.id);
}

export async function readSubscriptions(db: D1Database, ids: readonly number[]): Promise<StoredSubscription[]> {
  const { results } = await db
    .prepare(
      `SELECT id, topic, callback, secret, expires_at AS expiresAt FROM websub_subscriptions
       WHERE id IN (SELECT value FROM json_each(?1)) ORDER BY id`,
    )
    .bind(json(ids))
    .all<StoredSubscription>();
  return results;
}

/**
 * Claims (subscription, change) in the ledger for each of `ids` still subscribed; returns the ids claimed here. A
 * redelivered message, or an overlapping consumer, finds them claimed and sends nothing.
 */
export async function claimDeliveries(
  db: D1Database,
  ids: readonly number[],
  change: string,
  now: Date,
): Promise<number[]> {
  const { results } = await db
    .prepare(
      `INSERT INTO websub_deliveries (subscription_id, change, sent_at)
       SELECT id, ?2, ?3 FROM websub_subscriptions WHERE id IN (SELECT value FROM json_each(?1)) ORDER BY id
       ON CONFLICT DO NOTHING RETURNING subscription_id`,
    )
    .bind(json(ids), change, now.toISOString())
    .all<{ subscription_id: number }>();
  return results.map((row) => row.subscription_id);
}

/** What became of each delivery: the ids delivered, gone (to delete), and to try again. */
export interface DeliveryRecord {
  sent: readonly number[];
  gone: readonly number[];
  retry: readonly number[];
}

/**
 * Records one delivery round in one batch: successes clear `failing_since`; gone rows are deleted; a retried
 * delivery's ledger claim is given back; every failure starts (or continues) `failing_since`, and a subscription
 * failing for the delivery path's limit (7 days, delivery-policy.ts) is deleted.
 */
export async function recordDeliveries(
  db: D1Database,
  change: string,
  { sent, gone, retry }: DeliveryRecord,
  now: Date,
): Promise<void> {
  const statements: D1PreparedStatement[] = [];
  if (sent.length > 0)
    statements.push(
      db
        .prepare(
          'UPDATE websub_subscriptions SET failing_since = NULL WHERE id IN (SELECT value FROM json_each(?1)) AND failing_since IS NOT NULL',
        )
        .bind(json(sent)),
    );
  if (gone.length > 0)
    statements.push(
      db.prepare('DELETE FROM websub_subscriptions WHERE id IN (SELECT value FROM json_each(?1))').bind(json(gone)),
    );
  if (retry.length > 0) {
    const cutoff = new Date(now.getTime() - FAILING_LIMIT_MS).toISOString();
    statements.push(
      db
        .prepare(
          'DELETE FROM websub_deliveries WHERE change = ?2 AND subscription_id IN (SELECT value FROM json_each(?1))',
        )
        .bind(json(retry), change),
      db
        .prepare(
          'UPDATE websub_subscriptions SET failing_since = ?2 WHERE id IN (SELECT value FROM json_each(?1)) AND failing_since IS NULL',
        )
        .bind(json(retry), now.toISOString()),
      db
        .prepare(
          'DELETE FROM websub_subscriptions WHERE id IN (SELECT value FROM json_each(?1)) AND failing_since <= ?2',
        )
        .bind(json(retry), cutoff),
    );
  }
  if (statements.length > 0) await db.batch(statements);
}

/** Ids of `ids` still subscribed (a retry goes only to those). */
export async function stillSubscribed(db: D1Database, ids: readonly number[]): Promise<number[]> {
  const { results } = await db
    .prepare('SELECT id FROM websub_subscriptions WHERE id IN (SELECT value FROM json_each(?1)) ORDER BY id')
    .bind(json(ids))
    .all<{ id: number }>();
  return results.map((row) => row.id);
}

/**
 * Each minute (with the push cron): subscriptions past their lease are deleted (their ledger with them), and
 * ledger rows as old as the delivery path's ledgers keep theirs (delivery-policy.ts), in bounded slices.
 */
export async function pruneWebSub(db: D1Database, now: Date): Promise<void> {
  const cutoff = new Date(now.getTime() - LEDGER_KEPT_DAYS * MS_PER_DAY).toISOString();
  await db.batch([
    db
      .prepare(
        'DELETE FROM websub_subscriptions WHERE id IN (SELECT id FROM websub_subscriptions WHERE expires_at <= ?1 LIMIT ?2)',
      )
      .bind(now.toISOString(), LEDGER_PRUNE_SLICE),
    db
      .prepare(
        `DELETE FROM websub_deliveries WHERE (subscription_id, change) IN (
           SELECT subscription_id, change FROM websub_deliveries WHERE sent_at < ?1 ORDER BY sent_at LIMIT ?2)`,
      )
      .bind(cutoff, LEDGER_PRUNE_SLICE),
  ]);
}
