import type { Transition } from '../../core/push/due.ts';
import type { Event } from '../../core/schemas.ts';

/**
 * The chat webhooks' messages on push's queue (docs/push.md, "Dispatch and delivery"), in push's pattern: the cron
 * enqueues one `chat-fanout` per new (event, transition) beside push's `fanout`; a `chat-fanout` reads one page of the
 * topic's webhooks and enqueues `chat-deliver` messages for it and a `chat-fanout` for the next page; a `chat-deliver`
 * posts to a handful of webhooks. The event travels in the message.
 */

export interface ChatFanoutMessage {
  type: 'chat-fanout';
  event: Event;
  transition: Transition;
  /** The page starts after this webhook id (0 for the first page). */
  afterId: number;
}

export interface ChatDeliverMessage {
  type: 'chat-deliver';
  event: Event;
  transition: Transition;
  webhookIds: number[];
  /** 1 for the first try; a retry of the webhooks that answered 429/5xx carries the next number. */
  attempt: number;
}

export type ChatQueueMessage = ChatFanoutMessage | ChatDeliverMessage;
