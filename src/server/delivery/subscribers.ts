import type { ChannelName } from '../../core/delivery/channels.ts';
import { IN_IDS, jsonIds } from './sql.ts';

/**
 * The subscribers of every channel and their topics in D1 (migrations/0001_state.sql): one row per subscriber,
 * what makes it one (`key`: its stored address, or WebSub's topic and callback), where deliveries go, its language,
 * the channel's own fields, and its topics as rows of their own. Every function throws when D1 does (locked,
 * missing, overloaded); the write handlers answer that 503.
 */

export interface SubscriberWrite {
  channel: ChannelName;
  key: string;
  address: string;
  locale: string | null;
  /** The channel's own fields, stored as JSON and read by that channel alone. */
  data: Readonly<Record<string, unknown>>;
  /** Nothing is sent after it (a browser's expirationTime, a WebSub lease); null for no end. */
  expiresAt: Date | null;
  /** `<provider>/<kind>` pairs, or a feed's address. */
  topics: readonly string[];
}

export type SaveOutcome = 'created' | 'updated' | 'full';

/**
 * Stores a subscriber: a new one is inserted while its channel has fewer than `cap` subscribers (`created`, else
 * `full`); a known one (same channel and key) gets the new address, language, fields, end and topics, and its failure
 * record is cleared, since someone has just vouched for it (`updated`). The count and the insert are one statement,
 * so two writes at the cap cannot both pass it; the topics are replaced in one batch, which D1 runs as a transaction.
 */
export async function saveSubscriber(
  db: D1Database,
  write: SubscriberWrite,
  cap: number,
  now: Date,
): Promise<SaveOutcome> {
  const values = [
    write.channel,
    write.key,
    write.address,
    write.locale,
    JSON.stringify(write.data),
    now.toISOString(),
    write.expiresAt?.toISOString() ?? null,
  ];
  const inserted = await db
    .prepare(
      `INSERT INTO subscribers (channel, key, address, locale, data, created_at, expires_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7 WHERE (SELECT COUNT(*) FROM subscribers WHERE channel = ?1) < ?8
       ON CONFLICT (channel, key) DO NOTHING RETURNING id`,
    )
    .bind(...values, cap)
    .first<{ id: number }>();
  const updated =
    inserted ??
    (await db
      .prepare(
        `UPDATE subscribers SET address = ?3, locale = ?4, data = ?5, expires_at = ?7, failing_since = NULL
         WHERE channel = ?1 AND key = ?2 RETURNING id`,
      )
      .bind(...values)
      .first<{ id: number }>());
  if (updated === null) return 'full';
  const insert = 'INSERT INTO subscriber_topics (topic, subscriber_id) VALUES (?1, ?2)';
  await db.batch([
    db.prepare('DELETE FROM subscriber_topics WHERE subscriber_id = ?1').bind(updated.id),
    ...write.topics.map((topic) => db.prepare(insert).bind(topic, updated.id)),
  ]);
  return inserted === null ? 'updated' : 'created';
}

/**
 * Whether storing a subscriber `key` of `channel` would pass its `cap`: a new one while the channel has `cap` or more
 * (a known one only changes). For a channel that stores only after a check (WebSub's verification), asked before
 * the check is made; `saveSubscriber` applies the same rule when it stores.
 */
export async function wouldPassCap(db: D1Database, channel: ChannelName, key: string, cap: number): Promise<boolean> {
  const row = await db
    .prepare(
      `SELECT (SELECT COUNT(*) FROM subscribers WHERE channel = ?1) AS count,
              EXISTS (SELECT 1 FROM subscribers WHERE channel = ?1 AND key = ?2) AS known`,
    )
    .bind(channel, key)
    .first<{ count: number; known: number }>();
  return row !== null && row.known === 0 && row.count >= cap;
}

/** Forgets a subscriber with its topics and ledger rows (cascade); an unknown one is no error. */
export async function deleteSubscriber(db: D1Database, channel: ChannelName, key: string): Promise<void> {
  await db.prepare('DELETE FROM subscribers WHERE channel = ?1 AND key = ?2').bind(channel, key).run();
}

/** Removes subscribers by id (gone at their receiver, or no longer allowed); their ledger rows go with them. */
export const removeSubscribersStatement = (db: D1Database, ids: readonly number[]): D1PreparedStatement =>
  db.prepare(`DELETE FROM subscribers WHERE id ${IN_IDS}`).bind(jsonIds(ids));
