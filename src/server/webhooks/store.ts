import type { ChatWebhookRequest, ChatWebhookTopics } from '../../core/chat/webhook-request.ts';
import type { ChatPlatform } from '../../core/outbound/chat-platform.ts';
import { replaceTopics } from '../delivery/topics.ts';

/**
 * Chat webhooks in D1 (migrations/0007_chat_webhooks.sql): one row per webhook URL (in its stored form:
 * src/core/outbound), its platform, language and when it was made, its topics as rows of their own.
 *
 * Both functions throw when D1 does (a locked, missing or overloaded database); the handler answers that 503.
 */

/**
 * Stores the webhook of `request`: a new URL is inserted (`created`), a known one gets the new language and
 * topics, and its failure record is cleared (someone has just vouched for it). The topics are replaced in one
 * batch, which D1 runs as a transaction.
 */
export async function saveChatWebhook(
  db: D1Database,
  request: ChatWebhookRequest,
  platform: ChatPlatform,
  now: Date,
): Promise<{ created: boolean; topics: ChatWebhookTopics }> {
  const inserted = await db
    .prepare(
      `INSERT INTO chat_webhooks (url, platform, locale, created_at) VALUES (?1, ?2, ?3, ?4)
       ON CONFLICT (url) DO NOTHING RETURNING id`,
    )
    .bind(request.url, platform, request.locale, now.toISOString())
    .first<{ id: number }>();
  const id =
    inserted?.id ??
    (
      await db
        .prepare('UPDATE chat_webhooks SET locale = ?2, failing_since = NULL WHERE url = ?1 RETURNING id')
        .bind(request.url, request.locale)
        .first<{ id: number }>()
    )?.id;
  if (id === undefined) throw new Error('the webhook was neither inserted nor found');
  await db.batch(replaceTopics(db, 'chat', id, request));
  return {
    created: inserted !== null,
    topics: { platform, providers: request.providers, kinds: request.kinds, locale: request.locale },
  };
}

/** Forgets a webhook with its topics and ledger rows (cascade); an unknown URL is no error. */
export async function deleteChatWebhook(db: D1Database, url: string): Promise<void> {
  await db.prepare('DELETE FROM chat_webhooks WHERE url = ?1').bind(url).run();
}
