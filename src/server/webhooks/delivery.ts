import { type ChatMessage, chatMessage } from '../../core/chat/message.ts';
import { outboundAddress } from '../../core/outbound/address.ts';
import { type ChatPlatform, chatPlatformOf } from '../../core/outbound/chat-platform.ts';
import type { Locale } from '../../core/vocabulary.ts';
import { BASE_URL } from '../base-url.ts';
import type { ConsumerBindings, ConsumerSettings } from '../push/consumer.ts';
import { IN_IDS, jsonIds } from '../delivery/channels.ts';
import { pageMessages, sendAll } from '../delivery/fan-out.ts';
import { claimDeliveries } from '../delivery/ledger.ts';
import { recordOutcomes } from '../delivery/outcomes.ts';
import { topicSubscribers } from '../delivery/topics.ts';
import { DELIVER_CHUNK_SIZE, FANOUT_PAGE_SIZE, type PushQueueMessage } from '../push/messages.ts';
import type { ChatDeliverMessage, ChatFanoutMessage, ChatQueueMessage } from './messages.ts';
import { type ChatSendOutcome, postChatMessage } from './post-message.ts';

/**
 * The chat webhooks' half of the queue consumer (docs/push.md, "Dispatch and delivery"; its answers, "Retries and
 * drops"), on the delivery path's shared rules (src/server/delivery): fan-out in pages, a ledger claim per (webhook,
 * event, transition) before sending, the platform's answer applied to the webhook. What differs is the answer's
 * meaning: a 429 is the platform pacing a working webhook (`wait`), so it waits as asked without counting as a failure.
 */

export type ChatSettings = Pick<ConsumerSettings, 'allowLoopbackReceiver' | 'fetcher'>;

/** The cron's fan-out of a new (event, transition) to the chat webhooks, beside push's own (dispatch.ts). */
export const chatFanoutOf = (message: Pick<ChatFanoutMessage, 'event' | 'transition'>): ChatFanoutMessage => ({
  type: 'chat-fanout',
  event: message.event,
  transition: message.transition,
  afterId: 0,
});

/** One page of the topic's webhooks, as `chat-deliver` messages, and the next page's `chat-fanout` when there may be one. */
export async function chatFanOut(env: ConsumerBindings, message: ChatFanoutMessage): Promise<void> {
  const next = pageMessages<PushQueueMessage>(
    await topicSubscribers(env.PUSH_DB, 'chat', message.event, message.afterId, FANOUT_PAGE_SIZE),
    { page: FANOUT_PAGE_SIZE, chunk: DELIVER_CHUNK_SIZE },
    (afterId) => ({ ...message, afterId }),
    (webhookIds) => ({
      type: 'chat-deliver',
      event: message.event,
      transition: message.transition,
      webhookIds,
      attempt: 1,
    }),
  );
  await sendAll(env.PUSH_QUEUE, next);
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
  const claimedIds = await claimDeliveries(db, 'chat', message.webhookIds, [event.id, transition], now);
  if (claimedIds.length === 0) return;
  const { results: targets } = await db
    .prepare(`SELECT id, url, platform, locale FROM chat_webhooks WHERE id ${IN_IDS}`)
    .bind(jsonIds(claimedIds))
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
  for (const { id, outcome } of outcomes)
    if (outcome.kind !== 'sent') console.warn(`chat webhook ${id}: ${outcome.reason} (${outcome.kind})`);
  const next = await recordOutcomes(db, 'chat', [event.id, transition], message.attempt, outcomes, now);
  if (next !== undefined)
    await env.PUSH_QUEUE.send(
      { ...message, webhookIds: next.ids, attempt: next.attempt },
      { contentType: 'json', delaySeconds: next.delaySeconds },
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
