import { type ChatMessage, chatMessage } from '../../core/chat/message.ts';
import { MS_PER_DAY } from '../../core/ordering.ts';
import { outboundAddress } from '../../core/outbound/address.ts';
import { type ChatPlatform, chatPlatformOf } from '../../core/outbound/chat-platform.ts';
import type { Locale } from '../../core/vocabulary.ts';
import { BASE_URL } from '../base-url.ts';
import type { ConsumerBindings, ConsumerSettings } from '../push/consumer.ts';
import {
  FAILING_LIMIT_MS,
  LEDGER_KEPT_DAYS,
  LEDGER_PRUNE_SLICE,
  MAX_DELIVERY_ATTEMPTS,
  retryDelaySeconds,
} from '../push/delivery-policy.ts';
import { DELIVER_CHUNK_SIZE, FANOUT_PAGE_SIZE, type PushQueueMessage, SEND_BATCH_MAX } from '../push/messages.ts';
import type { ChatDeliverMessage, ChatFanoutMessage, ChatQueueMessage } from './messages.ts';
import { type ChatSendOutcome, postChatMessage } from './post-message.ts';

/**
 * The chat webhooks' half of the queue consumer (docs/push.md, "Chat webhooks"), in push's pattern and with its
 * limits (consumer.ts): fan-out in pages, a ledger claim per (webhook, event, transition) before sending, the
 * platform's answer applied to the webhook. What differs is the answer's meaning: a 429 is the platform pacing a
 * working webhook, so it waits as asked without counting as a failure.
 */

export type ChatSettings = Pick<ConsumerSettings, 'allowLoopbackReceiver' | 'fetcher'>;

const json = (values: readonly number[]) => JSON.stringify(values);

/** The cron's fan-out of a new (event, transition) to the chat webhooks, beside push's own (dispatch.ts). */
export const chatFanoutOf = (message: Pick<ChatFanoutMessage, 'event' | 'transition'>): ChatFanoutMessage => ({
  type: 'chat-fanout',
  event: message.event,
  transition: message.transition,
  afterId: 0,
});

async function enqueue(env: ConsumerBindings, messages: readonly PushQueueMessage[]): Promise<void> {
  for (let start = 0; start < messages.length; start += SEND_BATCH_MAX)
    await env.PUSH_QUEUE.sendBatch(
      messages.slice(start, start + SEND_BATCH_MAX).map((body) => ({ body, contentType: 'json' as const })),
    );
}

/** One page of the topic's webhooks, as `chat-deliver` messages, and the next page's `chat-fanout` when there may be one. */
export async function chatFanOut(env: ConsumerBindings, message: ChatFanoutMessage): Promise<void> {
  const { results } = await env.PUSH_DB.prepare(
    `SELECT webhook_id FROM chat_webhook_topics
     WHERE provider = ?1 AND kind = ?2 AND webhook_id > ?3 ORDER BY webhook_id LIMIT ?4`,
  )
    .bind(message.event.provider, message.event.kind, message.afterId, FANOUT_PAGE_SIZE)
    .all<{ webhook_id: number }>();
  const ids = results.map((row) => row.webhook_id);
  const next: PushQueueMessage[] = [];
  const last = ids.at(-1);
  if (ids.length === FANOUT_PAGE_SIZE && last !== undefined) next.push({ ...message, afterId: last });
  for (let start = 0; start < ids.length; start += DELIVER_CHUNK_SIZE)
    next.push({
      type: 'chat-deliver',
      event: message.event,
      transition: message.transition,
      webhookIds: ids.slice(start, start + DELIVER_CHUNK_SIZE),
      attempt: 1,
    });
  await enqueue(env, next);
}

interface ClaimedWebhook {
  id: number;
  url: string;
  platform: ChatPlatform;
  locale: Locale;
}

/**
 * Posts one event's message to a handful of webhooks. Each (webhook, event, transition) is first claimed in the
 * `chat_deliveries` ledger, so a redelivered message, an overlapping consumer or a second fan-out never posts it
 * twice; a claim whose post answered 429/5xx is given back and tried again later.
 */
export async function deliverChat(
  env: ConsumerBindings,
  message: ChatDeliverMessage,
  settings: ChatSettings,
  now: Date,
): Promise<void> {
  const { event, transition } = message;
  const db = env.PUSH_DB;
  const claimedIds = (
    await db
      .prepare(
        `INSERT INTO chat_deliveries (webhook_id, event_id, transition, sent_at)
         SELECT id, ?2, ?3, ?4 FROM chat_webhooks WHERE id IN (SELECT value FROM json_each(?1)) ORDER BY id
         ON CONFLICT DO NOTHING RETURNING webhook_id`,
      )
      .bind(json(message.webhookIds), event.id, transition, now.toISOString())
      .all<{ webhook_id: number }>()
  ).results.map((row) => row.webhook_id);
  if (claimedIds.length === 0) return;
  const { results: targets } = await db
    .prepare('SELECT id, url, platform, locale FROM chat_webhooks WHERE id IN (SELECT value FROM json_each(?1))')
    .bind(json(claimedIds))
    .all<ClaimedWebhook>();
  // The message depends on the platform and the language only: built once for each, not once per webhook.
  const messages = new Map<string, ChatMessage>();
  const messageFor = (platform: ChatPlatform, locale: Locale) => {
    const key = `${platform}/${locale}`;
    if (!messages.has(key)) messages.set(key, chatMessage(platform, event, transition, locale, BASE_URL));
    return messages.get(key)!;
  };
  const outcomes = await Promise.all(
    targets.map(async (target): Promise<{ id: number; outcome: ChatSendOutcome }> => {
      // Checked again at send time: a row written while the loopback setting was on is not posted to once it is off,
      // and a row written before the policy is held to it (push's sender does the same).
      const allowed = outboundAddress(target.url, { allowLoopbackReceiver: settings.allowLoopbackReceiver }).ok;
      if (!allowed || chatPlatformOf(target.url) !== target.platform)
        return { id: target.id, outcome: { kind: 'gone', status: 0, reason: 'no longer an allowed webhook URL' } };
      const body = messageFor(target.platform, target.locale);
      return { id: target.id, outcome: await postChatMessage(target.url, body, now, settings.fetcher) };
    }),
  );
  await recordOutcomes(env, message, outcomes, now);
}

async function recordOutcomes(
  env: ConsumerBindings,
  message: ChatDeliverMessage,
  outcomes: readonly { id: number; outcome: ChatSendOutcome }[],
  now: Date,
): Promise<void> {
  const db = env.PUSH_DB;
  const idsOf = (...kinds: ChatSendOutcome['kind'][]) =>
    outcomes.filter(({ outcome }) => kinds.includes(outcome.kind)).map(({ id }) => id);
  const sent = idsOf('sent');
  const gone = idsOf('gone');
  const again = idsOf('wait', 'retry');
  // A 429 is the platform pacing a webhook that works: not a failure toward the 7 days.
  const failing = idsOf('retry', 'failed');
  for (const { id, outcome } of outcomes)
    if (outcome.kind !== 'sent') console.warn(`chat webhook ${id}: ${outcome.reason} (${outcome.kind})`);
  const cutoff = new Date(now.getTime() - FAILING_LIMIT_MS).toISOString();
  const statements: D1PreparedStatement[] = [];
  if (sent.length > 0)
    statements.push(
      db
        .prepare(
          'UPDATE chat_webhooks SET failing_since = NULL WHERE id IN (SELECT value FROM json_each(?1)) AND failing_since IS NOT NULL',
        )
        .bind(json(sent)),
    );
  // 404/410: the webhook or its channel is gone; its topics and ledger rows go with it (cascade).
  if (gone.length > 0)
    statements.push(
      db.prepare('DELETE FROM chat_webhooks WHERE id IN (SELECT value FROM json_each(?1))').bind(json(gone)),
    );
  if (again.length > 0)
    statements.push(
      db
        .prepare(
          'DELETE FROM chat_deliveries WHERE event_id = ?2 AND transition = ?3 AND webhook_id IN (SELECT value FROM json_each(?1))',
        )
        .bind(json(again), message.event.id, message.transition),
    );
  if (failing.length > 0)
    statements.push(
      db
        .prepare(
          'UPDATE chat_webhooks SET failing_since = ?2 WHERE id IN (SELECT value FROM json_each(?1)) AND failing_since IS NULL',
        )
        .bind(json(failing), now.toISOString()),
      db
        .prepare('DELETE FROM chat_webhooks WHERE id IN (SELECT value FROM json_each(?1)) AND failing_since <= ?2')
        .bind(json(failing), cutoff),
    );
  if (statements.length > 0) await db.batch(statements);
  if (again.length === 0 || message.attempt >= MAX_DELIVERY_ATTEMPTS) return;
  const stillThere = (
    await db
      .prepare('SELECT id FROM chat_webhooks WHERE id IN (SELECT value FROM json_each(?1)) ORDER BY id')
      .bind(json(again))
      .all<{ id: number }>()
  ).results.map((row) => row.id);
  if (stillThere.length === 0) return;
  // What the platforms asked for (Discord's `retry_after`, a `Retry-After`), if any did: the longest wait.
  const asked = outcomes.flatMap(({ outcome }) =>
    (outcome.kind === 'wait' || outcome.kind === 'retry') && outcome.retryAfterSeconds !== undefined
      ? [outcome.retryAfterSeconds]
      : [],
  );
  const attempt = message.attempt + 1;
  await env.PUSH_QUEUE.send(
    { ...message, webhookIds: stillThere, attempt },
    {
      contentType: 'json',
      delaySeconds: retryDelaySeconds(attempt, asked.length > 0 ? Math.max(...asked) : undefined),
    },
  );
}

/** A chat message from the queue (consumer.ts hands them here). */
export async function consumeChatMessage(
  env: ConsumerBindings,
  body: ChatQueueMessage,
  settings: ChatSettings,
  now: Date,
): Promise<void> {
  if (body.type === 'chat-fanout') await chatFanOut(env, body);
  else await deliverChat(env, body, settings, now);
}

/** Deletes the oldest chat ledger rows past push's `LEDGER_KEPT_DAYS`, at most `slice` of them (dispatch.ts). */
export async function pruneChatLedger(db: D1Database, now: Date, slice = LEDGER_PRUNE_SLICE): Promise<number> {
  const cutoff = new Date(now.getTime() - LEDGER_KEPT_DAYS * MS_PER_DAY).toISOString();
  const result = await db
    .prepare(
      `DELETE FROM chat_deliveries WHERE (webhook_id, event_id, transition) IN (
         SELECT webhook_id, event_id, transition FROM chat_deliveries WHERE sent_at < ?1 ORDER BY sent_at LIMIT ?2)`,
    )
    .bind(cutoff, slice)
    .run();
  return result.meta.changes;
}
