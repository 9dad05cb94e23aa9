import { IN_IDS, jsonIds } from '../delivery/channels.ts';
import { pruneLedgerStatement } from '../delivery/ledger.ts';
import { LEDGER_PRUNE_SLICE } from '../delivery/policy.ts';

/**
 * The WebSub subscriptions in D1 (migrations/0006_websub.sql); their delivery ledger and what a delivery's
 * outcomes do to them are the delivery path's (src/server/delivery). Every statement binds its values.
 */

export interface StoredSubscription {
  id: number;
  topic: string;
  callback: string;
  secret: string | null;
  expiresAt: string;
}

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
       WHERE id ${IN_IDS} ORDER BY id`,
    )
    .bind(jsonIds(ids))
    .all<StoredSubscription>();
  return results;
}

/**
 * Each minute (with the push cron): subscriptions past their lease are deleted (their ledger with them), and
 * ledger rows as old as the delivery path's ledgers keep theirs (src/server/delivery/policy.ts), in bounded slices.
 */
export async function pruneWebSub(db: D1Database, now: Date): Promise<void> {
  await db.batch([
    db
      .prepare(
        'DELETE FROM websub_subscriptions WHERE id IN (SELECT id FROM websub_subscriptions WHERE expires_at <= ?1 LIMIT ?2)',
      )
      .bind(now.toISOString(), LEDGER_PRUNE_SLICE),
    pruneLedgerStatement(db, 'websub', now),
  ]);
}
