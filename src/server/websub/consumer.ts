import { providerFeedPath } from '../../core/built-paths.ts';
import { FEED_FORMATS, feedLinkHeader } from '../../core/render/feed-formats.ts';
import { findTopic, type WebSubTopic } from '../../core/websub/topics.ts';
import { pageMessages, sendAll } from '../delivery/fan-out.ts';
import { claimDeliveries } from '../delivery/ledger.ts';
import { recordOutcomes } from '../delivery/outcomes.ts';
import { type DistributionOutcome, distribute, type FeedDocument, confirmsIntent } from './callback.ts';
import {
  WEBSUB_DELIVER_CHUNK_SIZE,
  WEBSUB_FANOUT_PAGE_SIZE,
  type WebSubDeliverMessage,
  type WebSubFanoutMessage,
  type WebSubProducer,
  type WebSubQueueMessage,
  type WebSubVerifyMessage,
} from './messages.ts';
import { deleteWebSubSubscription, readSubscriptions, saveWebSubSubscription, subscriptionPage } from './store.ts';

/**
 * The WebSub queue's consumer: verification of intent (docs/push.md, "Writing a subscription"), fan-out in pages,
 * and content distribution with a ledger ("Dispatch and delivery"), retries and drops as push's ("Retries and
 * drops"; its backoff and number of tries are push's own).
 */

export interface WebSubConsumerBindings {
  ASSETS: Pick<Fetcher, 'fetch'>;
  PUSH_DB: D1Database;
  WEBSUB_QUEUE: WebSubProducer;
}

export interface WebSubSettings {
  /** `{base_url}`: the topics' addresses and the built files' origin. */
  baseUrl: string;
  allowLoopbackReceiver: boolean;
  fetcher?: typeof fetch;
}

const MS_PER_SECOND = 1000;

/** §5.3: the subscription (or its removal) takes effect only once the callback confirmed; the lease counts from the GET. */
export async function verify(
  env: WebSubConsumerBindings,
  message: WebSubVerifyMessage,
  settings: WebSubSettings,
  now: () => Date,
): Promise<boolean> {
  const askedAt = now();
  const subscribing = message.mode === 'subscribe';
  const { mode, topic, callback } = message;
  const confirmed = await confirmsIntent(
    { mode, topic, callback, ...(subscribing ? { leaseSeconds: message.leaseSeconds } : {}) },
    settings.allowLoopbackReceiver,
    settings.fetcher,
  );
  if (!confirmed) return false;
  if (subscribing)
    await saveWebSubSubscription(env.PUSH_DB, {
      topic: message.topic,
      callback: message.callback,
      secret: message.secret,
      expiresAt: new Date(askedAt.getTime() + message.leaseSeconds * MS_PER_SECOND),
    });
  else await deleteWebSubSubscription(env.PUSH_DB, message.topic, message.callback);
  return true;
}

/** One page of the changed topics' subscriptions as `websub-deliver` messages, and the next page's fan-out first. */
export async function fanOut(env: WebSubConsumerBindings, message: WebSubFanoutMessage, now: Date): Promise<void> {
  const next = pageMessages<WebSubQueueMessage>(
    await subscriptionPage(env.PUSH_DB, message.topics, message.afterId, now, WEBSUB_FANOUT_PAGE_SIZE),
    { page: WEBSUB_FANOUT_PAGE_SIZE, chunk: WEBSUB_DELIVER_CHUNK_SIZE },
    (afterId) => ({ ...message, afterId }),
    (subscriptionIds) => ({ type: 'websub-deliver', change: message.change, subscriptionIds, attempt: 1 }),
  );
  await sendAll(env.WEBSUB_QUEUE, next);
}

/** The built file of a topic, as the feed's route serves it (functions/api/feeds.ts); throws when it cannot be read. */
async function feedDocument(env: WebSubConsumerBindings, topic: WebSubTopic, baseUrl: string): Promise<FeedDocument> {
  const { path, contentType } = FEED_FORMATS[topic.format];
  const file = topic.provider === undefined ? path : providerFeedPath(topic.format, topic.provider);
  const response = await env.ASSETS.fetch(new Request(new URL(file, baseUrl)));
  if (response.status !== 200) throw new Error(`the built feed ${file} answered ${response.status}`);
  return {
    body: await response.arrayBuffer(),
    contentType,
    link: feedLinkHeader(baseUrl, topic.format, topic.provider),
  };
}

/**
 * The feed, as it is now, to a handful of subscriptions: each (subscription, change) claimed in the ledger first,
 * so a redelivered message never sends twice; what failed is given back and tried again later, with push's
 * backoff (30 s doubling, or the callback's Retry-After), up to push's number of tries.
 */
export async function deliver(
  env: WebSubConsumerBindings,
  message: WebSubDeliverMessage,
  settings: WebSubSettings,
  now: Date,
): Promise<void> {
  const db = env.PUSH_DB;
  const subscriptions = (await readSubscriptions(db, message.subscriptionIds)).flatMap((subscription) => {
    const topic = findTopic(settings.baseUrl, subscription.topic);
    return topic === undefined ? [] : [{ ...subscription, topic }];
  });
  // The documents first: a build that cannot be read fails the message (the queue retries it) before any claim.
  const documents = new Map<string, FeedDocument>();
  for (const { topic } of subscriptions)
    if (!documents.has(topic.url)) documents.set(topic.url, await feedDocument(env, topic, settings.baseUrl));
  const claimed = new Set(
    await claimDeliveries(
      db,
      'websub',
      subscriptions.map(({ id }) => id),
      [message.change],
      now,
    ),
  );
  const outcomes = await Promise.all(
    subscriptions
      .filter(({ id }) => claimed.has(id))
      .map(
        async (subscription): Promise<{ id: number; outcome: DistributionOutcome }> => ({
          id: subscription.id,
          // Past its lease (a minute's prune not yet run): gone, as the lease says.
          outcome:
            Date.parse(subscription.expiresAt) <= now.getTime()
              ? { kind: 'gone', status: 0 }
              : await distribute(
                  subscription,
                  documents.get(subscription.topic.url)!,
                  settings.allowLoopbackReceiver,
                  now,
                  settings.fetcher,
                ),
        }),
      ),
  );
  const next = await recordOutcomes(db, 'websub', [message.change], message.attempt, outcomes, now);
  if (next !== undefined)
    await env.WEBSUB_QUEUE.send(
      { ...message, subscriptionIds: next.ids, attempt: next.attempt },
      { contentType: 'json', delaySeconds: next.delaySeconds },
    );
}

/**
 * A batch from the WebSub queue: each message on its own, so one that fails (D1 or the built files unavailable) is
 * retried by the queue without holding up the others. The callbacks' answers never throw (callback.ts).
 */
export async function consumeWebSubBatch(
  messages: readonly Message<WebSubQueueMessage>[],
  env: WebSubConsumerBindings,
  settings: WebSubSettings,
  now: () => Date = () => new Date(),
): Promise<void> {
  await Promise.all(
    messages.map(async (message) => {
      try {
        const { body } = message;
        if (body.type === 'websub-verify') await verify(env, body, settings, now);
        else if (body.type === 'websub-fanout') await fanOut(env, body, now());
        else await deliver(env, body, settings, now());
        message.ack();
      } catch (error) {
        console.error('websub queue message failed', error);
        message.retry();
      }
    }),
  );
}
