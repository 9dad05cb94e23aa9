import type { WebSubMode } from '../../core/websub/request.ts';

/**
 * The WebSub queue's messages (docs/push.md, "Writing a subscription", "Dispatch and delivery"), on a queue of
 * their own (`departures-board-websub`), so that the hub's retries and the push fan-out never wait on each other:
 * - `websub-verify`: a request `POST /websub` accepted, to verify with the callback (WebSub §5.3). The secret
 *   travels here until the callback confirms; nothing is stored before.
 * - `websub-fanout`: one dispatch run's changes (the push cron found new events or transitions): one page of the
 *   changed topics' subscriptions becomes `websub-deliver` messages, and the next page its own `websub-fanout`.
 * - `websub-deliver`: the feed sent to a handful of subscriptions, once per change each (the ledger).
 */

export interface WebSubVerifyMessage {
  type: 'websub-verify';
  mode: WebSubMode;
  topic: string;
  callback: string;
  leaseSeconds: number;
  secret: string | null;
}

export interface WebSubFanoutMessage {
  type: 'websub-fanout';
  /** Names the change in the ledger: the first (event, transition) pair of the run, which no other run claims. */
  change: string;
  /** The topics whose feed changed. */
  topics: string[];
  /** The page starts after this subscription id (0 for the first page). */
  afterId: number;
}

export interface WebSubDeliverMessage {
  type: 'websub-deliver';
  change: string;
  subscriptionIds: number[];
  /** 1 for the first try; a retry of the subscriptions that failed carries the next number. */
  attempt: number;
}

export type WebSubQueueMessage = WebSubVerifyMessage | WebSubFanoutMessage | WebSubDeliverMessage;

/** The queue's name in wrangler.jsonc: the worker's `queue()` tells its batches from push's by it. */
export const WEBSUB_QUEUE_NAME = 'departures-board-websub';

/** Subscriptions read per `websub-fanout` message, and per `websub-deliver` message. */
export const WEBSUB_FANOUT_PAGE_SIZE = 1000;
export const WEBSUB_DELIVER_CHUNK_SIZE = 10;

/** What WebSub needs of its queue's producer binding (a `Queue<WebSubQueueMessage>`; the tests' recorder too). */
export interface WebSubProducer {
  send(body: WebSubQueueMessage, options?: QueueSendOptions): Promise<unknown>;
  sendBatch(messages: Iterable<MessageSendRequest<WebSubQueueMessage>>): Promise<unknown>;
}
