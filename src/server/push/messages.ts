import type { Transition } from '../../core/push/due.ts';
import type { Event } from '../../core/schemas.ts';
import type { ChatQueueMessage } from '../webhooks/messages.ts';

/**
 * The push queue's messages (docs/push.md, "Dispatch and delivery"). A new build's first request enqueues one
 * `dispatch`, whose consumer runs the dispatch the cron runs every minute. The dispatch enqueues one `fanout` per new
 * (event, transition); a `fanout` reads one page of the topic's subscriptions, enqueues `deliver` messages for
 * it and a `fanout` for the next page; a `deliver` sends to a handful of subscriptions. So no invocation does
 * more than one page of work, whatever the number of subscribers. The event travels in the message: only a
 * `dispatch` reads the site's data.
 */

export interface DispatchMessage {
  type: 'dispatch';
  /** The build whose first request asked for it (build-dispatch.ts), for the log. */
  buildId: string;
}

export interface FanoutMessage {
  type: 'fanout';
  event: Event;
  transition: Transition;
  /** The page starts after this subscription id (0 for the first page). */
  afterId: number;
}

export interface DeliverMessage {
  type: 'deliver';
  event: Event;
  transition: Transition;
  subscriptionIds: number[];
  /** 1 for the first try; a retry of the subscriptions that answered 429/5xx carries the next number. */
  attempt: number;
}

/** The queue also carries the chat webhooks' messages (src/server/webhooks/messages.ts): one delivery path. */
export type PushQueueMessage = DispatchMessage | FanoutMessage | DeliverMessage | ChatQueueMessage;

/**
 * Subscriptions read per `fanout` message (one indexed range read), sent on as 500 `deliver` messages in
 * `sendBatch` calls of 100 (`SEND_BATCH_MAX`, src/server/delivery/fan-out.ts). The pages follow one another (each enqueues the next first), so the page size sets
 * how long the chain is: 200 pages for a million subscribers (docs/performance.md, "Push at scale").
 */
export const FANOUT_PAGE_SIZE = 5000;
/** Subscriptions per `deliver` message: a consumer batch of 100 messages then makes at most 1,000 requests. */
export const DELIVER_CHUNK_SIZE = 10;

/** What push needs of the queue's producer binding (a `Queue<PushQueueMessage>`; the tests' recorder too). */
export interface PushProducer {
  send(body: PushQueueMessage, options?: QueueSendOptions): Promise<unknown>;
  sendBatch(messages: Iterable<MessageSendRequest<PushQueueMessage>>): Promise<unknown>;
}
