import type { EventKind, Provider } from '../../core/vocabulary.ts';

/**
 * The topics of the channels whose subscribers choose providers and kinds of events (push subscriptions and chat
 * webhooks; a WebSub subscription's topic is a feed): one row per subscriber, provider and kind
 * (migrations/0001_push.sql, 0007_chat_webhooks.sql). The statements write these names into their SQL, so they are
 * constants here and nowhere else, as the ledgers' are (channels.ts).
 */
const TOPIC_TABLES = {
  push: { topics: 'subscription_topics', subscriber: 'subscription_id' },
  chat: { topics: 'chat_webhook_topics', subscriber: 'webhook_id' },
} as const;

export type TopicChannel = keyof typeof TOPIC_TABLES;

/**
 * The statements that replace subscriber `id`'s topics with every pair of `providers` and `kinds`: run them in one
 * `batch`, which D1 runs as a transaction.
 */
export function replaceTopics(
  db: D1Database,
  channel: TopicChannel,
  id: number,
  { providers, kinds }: { providers: readonly Provider[]; kinds: readonly EventKind[] },
): D1PreparedStatement[] {
  const { topics, subscriber } = TOPIC_TABLES[channel];
  const insert = `INSERT INTO ${topics} (provider, kind, ${subscriber}) VALUES (?1, ?2, ?3)`;
  return [
    db.prepare(`DELETE FROM ${topics} WHERE ${subscriber} = ?1`).bind(id),
    ...providers.flatMap((provider) => kinds.map((kind) => db.prepare(insert).bind(provider, kind, id))),
  ];
}

/** A page of the subscribers to an event's provider and kind, in id order after `afterId`: a fan-out's page. */
export async function topicSubscribers(
  db: D1Database,
  channel: TopicChannel,
  { provider, kind }: { provider: Provider; kind: EventKind },
  afterId: number,
  limit: number,
): Promise<number[]> {
  const { topics, subscriber } = TOPIC_TABLES[channel];
  const { results } = await db
    .prepare(
      `SELECT ${subscriber} AS id FROM ${topics}
       WHERE provider = ?1 AND kind = ?2 AND ${subscriber} > ?3 ORDER BY ${subscriber} LIMIT ?4`,
    )
    .bind(provider, kind, afterId, limit)
    .all<{ id: number }>();
  return results.map((row) => row.id);
}
