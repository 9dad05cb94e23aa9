import type { ChannelName } from '../../core/delivery/channels.ts';
import type { OutboundRules } from '../../core/outbound/address.ts';
import type { Transition } from '../../core/push/due.ts';
import type { Event } from '../../core/schemas.ts';
import type { Locale } from '../../core/vocabulary.ts';
import type { DeliveryBindings } from './bindings.ts';

/**
 * What a channel brings to the delivery wing (docs/delivery.md, "A new channel"): its name, its address rule, its
 * message per language and its send, and how it reads an answer (the outcome it returns). Everything else, the
 * subscribers and their topics, the fan-out, the ledger, retries, expiry, caps and drops, is the wing's, once.
 */

/** What one send did, as the wing reads it. `reason` is for the ledger's `last_error` and the log. */
export type DeliveryOutcome =
  | { kind: 'sent' }
  /** 404/410, an expired subscription, an address no longer allowed: the subscriber is removed. */
  | { kind: 'gone'; reason?: string }
  /** 429/5xx or no answer: tried again after the backoff (or the receiver's `Retry-After`), within the window. */
  | { kind: 'retry'; retryAfterSeconds?: number | undefined; reason?: string }
  /** The receiver pacing a working subscriber (chat's 429): tried again as asked, and no failure toward the drop. */
  | { kind: 'wait'; retryAfterSeconds?: number | undefined; reason?: string }
  /** Refused for good (another 4xx): recorded as failed, not tried again. */
  | { kind: 'failed'; reason?: string };

/** One (event, transition) on its way. `id` is what a receiver tells a second copy by (docs/delivery.md). */
export interface Delivery {
  event: Event;
  transition: Transition;
  id: string;
}

export const deliveryId = (eventId: string, transition: Transition): string => `${eventId}/${transition}`;

/** A subscriber as the wing hands it to its channel: `data` is the channel's own JSON, read by that channel alone. */
export interface Subscriber {
  id: number;
  address: string;
  locale: Locale | null;
  data: string;
}

export interface SendContext {
  env: DeliveryBindings;
  /** `{base_url}`. */
  baseUrl: string;
  rules: OutboundRules;
  /** The service's clock (docs/delivery.md, "One clock"). */
  now: Date;
  fetcher: typeof fetch;
}

export interface DeliveryChannel {
  readonly name: ChannelName;
  /**
   * Whether this deployment has what the channel itself needs (push: the VAPID secrets). Without it the channel's
   * writes answer 503 and its deliveries wait (and expire at the window's end); no other channel is affected.
   */
  ready(env: DeliveryBindings): boolean;
  /** Whether a stored address may still be sent to (checked at send time: rules change, rows stay). */
  accepts(address: string, rules: OutboundRules): boolean;
  /**
   * A sender for one delivery: it builds each message once (per language, per feed) and sends it to a subscriber.
   * Never throws for a subscriber's sake: every failure is an outcome. May throw when the service itself cannot
   * send now (a built file unreadable): the queue then tries the message again.
   */
  sender(delivery: Delivery, context: SendContext): Promise<(subscriber: Subscriber) => Promise<DeliveryOutcome>>;
  /**
   * For a channel that checks a new subscriber before storing it (WebSub's verification of intent): run from the
   * queue's `verify` message with the request the channel's write path put in it; stores (or removes) the
   * subscriber once the check passed, and returns whether it did.
   */
  verify?(request: unknown, context: Omit<SendContext, 'baseUrl'>): Promise<boolean>;
}
