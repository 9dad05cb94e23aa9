import { z } from 'zod';
import { providerFeedPath } from '../../../../core/built-paths.ts';
import { outboundAddress } from '../../../../core/outbound/address.ts';
import { FEED_FORMATS, feedLinkHeader } from '../../../../core/render/feed-formats.ts';
import { WEBSUB_MODES } from '../../../../core/websub/request.ts';
import { findTopic, type WebSubTopic } from '../../../../core/websub/topics.ts';
import type { DeliveryBindings } from '../../bindings.ts';
import type { DeliveryChannel } from '../../channel.ts';
import { deleteSubscriber, saveSubscriber } from '../../subscribers.ts';
import { journalFeed } from '../../../journal/feeds.ts';
import { type JournalData, journalData } from '../../../journal/read.ts';
import { subscriberCap } from '../../caps.ts';
import { confirmsIntent, distribute, type FeedDocument } from './callback.ts';

/**
 * WebSub (W3C Recommendation; decisions.md "WebSub"): a subscriber is a (topic, callback) verified by intent (§5.3),
 * and a delivery is the topic's whole feed POSTed to the callback (§7), signed with its secret when it gave one.
 */

/** The channel's fields of a subscriber: its topic and the key of its signatures. */
const WebSubData = z.object({ topic: z.string(), secret: z.string().nullable() });

/** A request `POST /websub` accepted, travelling in a `verify` message until the callback confirms it. */
export const WebSubVerifyRequest = z.object({
  mode: z.enum(WEBSUB_MODES),
  topic: z.string(),
  callback: z.string(),
  leaseSeconds: z.number().int().positive(),
  secret: z.string().nullable(),
});
export type WebSubVerifyRequest = z.infer<typeof WebSubVerifyRequest>;

/** What makes a WebSub subscriber one: its topic and callback. */
export const webSubKey = (topic: string, callback: string) => `${topic} ${callback}`;

/**
 * A topic's feed as the feed's route serves it (functions/api/feeds.ts): the built file, or the feed with the
 * journal's events while it holds one of the topic (`journalFeed`); throws when unreadable.
 */
async function feedDocument(
  env: DeliveryBindings,
  topic: WebSubTopic,
  baseUrl: string,
  journal: JournalData,
): Promise<FeedDocument> {
  const { path, contentType } = FEED_FORMATS[topic.format];
  const link = feedLinkHeader(baseUrl, topic.format, topic.provider);
  const written = await journalFeed(journal, topic.format, topic.provider);
  if (written !== null) return { body: new TextEncoder().encode(written).buffer, contentType, link };
  const file = topic.provider === undefined ? path : providerFeedPath(topic.format, topic.provider);
  const response = await env.ASSETS.fetch(new Request(new URL(file, baseUrl)));
  if (response.status !== 200) throw new Error(`the built feed ${file} answered ${response.status}`);
  return { body: await response.arrayBuffer(), contentType, link };
}

export const webSubChannel: DeliveryChannel = {
  name: 'websub',
  ready: () => true,
  accepts: (address, rules) => outboundAddress(address, rules).ok,
  async sender({ id }, { env, baseUrl, rules, now, fetcher }) {
    const documents = new Map<string, Promise<FeedDocument>>();
    const journal = journalData(env.ASSETS, env.DB, baseUrl);
    const documentOf = (topic: WebSubTopic) => {
      if (!documents.has(topic.url)) documents.set(topic.url, feedDocument(env, topic, baseUrl, journal));
      return documents.get(topic.url)!;
    };
    return async (subscriber) => {
      const data = WebSubData.safeParse(JSON.parse(subscriber.data));
      const topic = data.success ? findTopic(baseUrl, data.data.topic) : undefined;
      if (!data.success || topic === undefined) return { kind: 'gone', reason: 'its topic is no longer served' };
      const document = await documentOf(topic);
      const outcome = await distribute(
        { callback: subscriber.address, secret: data.data.secret },
        document,
        rules.allowLoopbackReceiver,
        now,
        fetcher,
        id,
      );
      if (outcome.kind === 'sent') return outcome;
      return { ...outcome, reason: outcome.status === 0 ? 'no answer' : `the callback answered ${outcome.status}` };
    };
  },
  /**
   * §5.3: the subscription (or its removal) takes effect only once the callback confirmed; the lease counts from the
   * GET. Returns whether it was confirmed. A subscription past the channel's cap is not made (logged).
   */
  async verify(body, { env, rules, now, fetcher }) {
    const request = WebSubVerifyRequest.parse(body);
    const db = env.DB;
    if (db === undefined) throw new Error('the state database is not bound');
    const { mode, topic, callback, leaseSeconds, secret } = request;
    const subscribing = mode === 'subscribe';
    const confirmed = await confirmsIntent(
      { mode, topic, callback, ...(subscribing ? { leaseSeconds } : {}) },
      rules.allowLoopbackReceiver,
      fetcher,
    );
    if (!confirmed) return false;
    if (!subscribing) {
      await deleteSubscriber(db, 'websub', webSubKey(topic, callback));
      return true;
    }
    const write = {
      channel: 'websub' as const,
      key: webSubKey(topic, callback),
      address: callback,
      locale: null,
      data: { topic, secret },
      expiresAt: new Date(now.getTime() + leaseSeconds * 1000),
      topics: [topic],
    };
    if ((await saveSubscriber(db, write, subscriberCap('websub', env.SUBSCRIBER_CAPS), now)) === 'full')
      console.warn('websub is full: a verified subscription was not made');
    return true;
  },
};
