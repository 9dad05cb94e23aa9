import type { Transition } from '../../core/push/due.ts';
import type { Event } from '../../core/schemas.ts';

/**
 * The delivery queue's messages (docs/delivery.md, "The pipeline"), one queue for every channel:
 * - `dispatch`: a new build's first request asks for the dispatch the minute cron runs (build-dispatch.ts);
 * - `fanout`: one page of an (event, transition)'s subscribers becomes ledger rows and `deliver` messages, and the
 *   next page its own `fanout`;
 * - `deliver`: one (event, transition) to a handful of subscribers of any channels;
 * - `verify`: a channel's check of a new subscriber (WebSub's verification of intent), its request the channel's own.
 * `lease` names the hold the message has on its ledger rows or its fan-out: a message whose hold was handed on (the
 * cron took it as lost) does nothing. `at` is the service's clock when the message was made (docs/delivery.md,
 * "One clock"): the consumer never runs earlier than it.
 */

export interface DispatchMessage {
  type: 'dispatch';
  /** The build whose first request asked for it, for the log. */
  buildId: string;
}

export interface FanoutMessage {
  type: 'fanout';
  event: Event;
  transition: Transition;
  lease: string;
  at: string;
}

export interface DeliverMessage {
  type: 'deliver';
  event: Event;
  transition: Transition;
  subscriberIds: number[];
  lease: string;
  at: string;
}

export interface VerifyMessage {
  type: 'verify';
  channel: string;
  request: unknown;
  at: string;
}

export type DeliveryMessage = DispatchMessage | FanoutMessage | DeliverMessage | VerifyMessage;

/** The queues' names in wrangler.jsonc: the worker's `queue()` tells the dead letters from the rest by it. */
export const DELIVERY_QUEUE_NAME = 'departures-board-delivery';
export const DEAD_LETTER_QUEUE_NAME = 'departures-board-delivery-dlq';

/** What the wing needs of the queue's producer binding (a `Queue`; the tests' recorder too). */
export interface DeliveryProducer {
  send(body: DeliveryMessage, options?: QueueSendOptions): Promise<unknown>;
  sendBatch(messages: Iterable<MessageSendRequest<DeliveryMessage>>): Promise<unknown>;
}

/** The most messages one `sendBatch` takes. */
const SEND_BATCH_MAX = 100;

/** Sends `messages` in `sendBatch` calls of at most 100. */
export async function sendAll(queue: Pick<DeliveryProducer, 'sendBatch'>, messages: readonly DeliveryMessage[]) {
  for (let start = 0; start < messages.length; start += SEND_BATCH_MAX)
    await queue.sendBatch(
      messages.slice(start, start + SEND_BATCH_MAX).map((body) => ({ body, contentType: 'json' as const })),
    );
}

/** `ids` in `deliver` messages of at most `size` each, every one holding `lease`. */
export function deliverMessages(
  pair: { event: Event; transition: Transition },
  ids: readonly number[],
  size: number,
  lease: string,
  at: Date,
): DeliverMessage[] {
  const messages: DeliverMessage[] = [];
  for (let start = 0; start < ids.length; start += size)
    messages.push({
      type: 'deliver',
      event: pair.event,
      transition: pair.transition,
      subscriberIds: ids.slice(start, start + size),
      lease,
      at: at.toISOString(),
    });
  return messages;
}

/** The clock a message runs at: its own `at`, or the time now when that is later (docs/delivery.md, "One clock"). */
export const clockOf = (message: { at?: string }, wallClock = Date.now()): Date =>
  new Date(Math.max(message.at === undefined ? 0 : Date.parse(message.at) || 0, wallClock));
