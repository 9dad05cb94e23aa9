import { encodePayload, pushPayload } from '../../core/push/payload.ts';
import { LOCALES, type Locale } from '../../core/vocabulary.ts';
import { BASE_URL } from '../base-url.ts';
import { consumeChatMessage } from '../webhooks/delivery.ts';
import { pageMessages, sendAll } from '../delivery/fan-out.ts';
import { IN_IDS, jsonIds } from '../delivery/channels.ts';
import { claimDeliveries } from '../delivery/ledger.ts';
import { recordOutcomes } from '../delivery/outcomes.ts';
import { topicSubscribers } from '../delivery/topics.ts';
import {
  DELIVER_CHUNK_SIZE,
  type DeliverMessage,
  type DispatchMessage,
  FANOUT_PAGE_SIZE,
  type FanoutMessage,
  type PushProducer,
  type PushQueueMessage,
} from './messages.ts';
import { PUSH_TTL_SECONDS, sendPush } from './sender.ts';
import type { VapidKeys } from './vapid.ts';

/**
 * The queue consumer's half of push (docs/push.md, "Dispatch and delivery"): fan-out in pages, sending, the
 * delivery ledger, and what each push service answer does to its subscription.
 */

export interface ConsumerBindings {
  PUSH_DB: D1Database;
  PUSH_QUEUE: PushProducer;
}

export interface ConsumerSettings {
  vapid: VapidKeys;
  allowLoopbackReceiver: boolean;
  fetcher?: typeof fetch;
  /**
   * Runs what a `dispatch` message asks for: the dispatch the minute cron runs, at `now` (worker-handlers.ts hands
   * `dispatchDue` over the worker's bindings). A consumer without it retries such a message.
   */
  dispatch?: (message: DispatchMessage, now: Date) => Promise<unknown>;
}

/** One page of the topic's subscribers, as `deliver` messages, and the next page's `fanout` when there may be one. */
export async function fanOut(env: ConsumerBindings, message: FanoutMessage): Promise<void> {
  const next = pageMessages<PushQueueMessage>(
    await topicSubscribers(env.PUSH_DB, 'push', message.event, message.afterId, FANOUT_PAGE_SIZE),
    { page: FANOUT_PAGE_SIZE, chunk: DELIVER_CHUNK_SIZE },
    (afterId) => ({ ...message, afterId }),
    (subscriptionIds) => ({
      type: 'deliver',
      event: message.event,
      transition: message.transition,
      subscriptionIds,
      attempt: 1,
    }),
  );
  await sendAll(env.PUSH_QUEUE, next);
}

interface ClaimedSubscription {
  id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  locale: Locale;
  expirationTime: number | null;
}

/**
 * Sends one event's notification to a handful of subscriptions. Each (subscription, event, transition) is first
 * claimed in the `deliveries` ledger, so a redelivered message, an overlapping consumer or a second fan-out never
 * sends it twice; a claim whose push answered 429/5xx is given back and retried later.
 */
export async function deliver(
  env: ConsumerBindings,
  message: DeliverMessage,
  settings: ConsumerSettings,
  now: Date,
): Promise<void> {
  const { event, transition } = message;
  const db = env.PUSH_DB;
  const claimedIds = await claimDeliveries(db, 'push', message.subscriptionIds, [event.id, transition], now);
  if (claimedIds.length === 0) return;
  const { results: targets } = await db
    .prepare(
      `SELECT id, endpoint, p256dh, auth, locale, expiration_time AS expirationTime FROM subscriptions
       WHERE id ${IN_IDS}`,
    )
    .bind(jsonIds(claimedIds))
    .all<ClaimedSubscription>();
  // The payload depends on the language only: built once per language, not once per subscriber.
  const payloads = Object.fromEntries(
    LOCALES.map((locale) => [locale, encodePayload(pushPayload(event, transition, locale, BASE_URL))]),
  ) as Record<Locale, string>;
  const options = {
    ttl: PUSH_TTL_SECONDS,
    urgency: event.kind === 'reset' ? ('high' as const) : ('normal' as const),
    allowLoopbackReceiver: settings.allowLoopbackReceiver,
  };
  const outcomes = await Promise.all(
    targets.map(async (target) => ({
      id: target.id,
      outcome: await sendPush(target, payloads[target.locale], settings.vapid, options, now, settings.fetcher),
    })),
  );
  const next = await recordOutcomes(db, 'push', [event.id, transition], message.attempt, outcomes, now);
  if (next !== undefined)
    await env.PUSH_QUEUE.send(
      { ...message, subscriptionIds: next.ids, attempt: next.attempt },
      { contentType: 'json', delaySeconds: next.delaySeconds },
    );
}

/**
 * A batch from the queue: each message on its own, so one that fails (D1 unavailable) is retried by the queue
 * without holding up the others. Sending itself never throws (sender.ts).
 */
export async function consumePushBatch(
  batch: MessageBatch<PushQueueMessage>,
  env: ConsumerBindings,
  settings: ConsumerSettings,
  now: () => Date = () => new Date(),
): Promise<void> {
  await Promise.all(
    batch.messages.map(async (message) => {
      try {
        const { body } = message;
        if (body.type === 'dispatch') {
          if (settings.dispatch === undefined) throw new Error('this consumer cannot run a dispatch');
          await settings.dispatch(body, now());
        } else if (body.type === 'fanout') await fanOut(env, body);
        else if (body.type === 'deliver') await deliver(env, body, settings, now());
        else await consumeChatMessage(env, body, settings, now());
        message.ack();
      } catch (error) {
        console.error('push queue message failed', error);
        message.retry();
      }
    }),
  );
}
