import type { SubscribeRequest, SubscriptionTopics } from '../../core/push/subscription.ts';
import { replaceTopics } from '../delivery/topics.ts';

/**
 * Subscriptions in D1 (migrations/0001_push.sql, 0004): one row per push endpoint, its topics as rows of their own.
 * Only what delivery needs is kept: the endpoint (in its stored form: src/core/outbound), its keys, its expiration
 * time, the topics, the language and when it was made.
 *
 * Both functions throw when D1 does (a locked, missing or overloaded database); the handler answers that 503.
 */

/**
 * Stores `request`'s subscription: a new endpoint is inserted (`created`), an existing one gets the new keys,
 * expiration time, topics and language (its failure record cleared: the browser has just vouched for it). The
 * topics are replaced in one batch, which D1 runs as a transaction.
 */
export async function saveSubscription(
  db: D1Database,
  request: SubscribeRequest,
  now: Date,
): Promise<{ created: boolean; topics: SubscriptionTopics }> {
  const { endpoint, keys } = request.subscription;
  const expirationTime = request.subscription.expirationTime ?? null;
  const inserted = await db
    .prepare(
      `INSERT INTO subscriptions (endpoint, p256dh, auth, locale, created_at, expiration_time)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (endpoint) DO NOTHING RETURNING id`,
    )
    .bind(endpoint, keys.p256dh, keys.auth, request.locale, now.toISOString(), expirationTime)
    .first<{ id: number }>();
  const id =
    inserted?.id ??
    (
      await db
        .prepare(
          `UPDATE subscriptions SET p256dh = ?2, auth = ?3, locale = ?4, expiration_time = ?5, failing_since = NULL
           WHERE endpoint = ?1 RETURNING id`,
        )
        .bind(endpoint, keys.p256dh, keys.auth, request.locale, expirationTime)
        .first<{ id: number }>()
    )?.id;
  if (id === undefined) throw new Error('the subscription was neither inserted nor found');
  await db.batch(replaceTopics(db, 'push', id, request));
  return {
    created: inserted !== null,
    topics: { providers: request.providers, kinds: request.kinds, locale: request.locale },
  };
}

/** Forgets an endpoint with its topics and ledger rows (cascade); an unknown one is no error. */
export async function deleteSubscription(db: D1Database, endpoint: string): Promise<void> {
  await db.prepare('DELETE FROM subscriptions WHERE endpoint = ?1').bind(endpoint).run();
}
