import type { OutboundRules } from '../../core/outbound/address.ts';
import type { DeliveryBindings } from './bindings.ts';
import { type DeliveryOutcome, deliveryId, type SendContext, type Subscriber } from './channel.ts';
import { channelNamed } from './channels/index.ts';
import type { DeliverMessage } from './messages.ts';
import { recordOutcomes, type SendResult } from './outcomes.ts';
import { QUEUE_CARRIED_RETRY_MS, SENDING_LEASE_MS } from './policy.ts';
import { IN_IDS, jsonIds } from './sql.ts';

/**
 * One (event, transition) to a handful of subscribers of any channels (docs/delivery.md, "The pipeline"). Each
 * ledger row is claimed first, while this message still holds it (or nobody does and it is due), so a redelivered
 * message, an overlapping consumer or a message the cron replaced never sends twice. Each subscriber's channel then
 * sends, and the outcomes are recorded in one D1 batch (outcomes.ts).
 */

export interface DeliverSettings {
  rules: OutboundRules;
  baseUrl: string;
  fetcher?: typeof fetch;
}

interface ClaimedRow extends Subscriber {
  channel: string;
  expiresAt: string | null;
}

export async function deliver(
  env: DeliveryBindings & { DB: D1Database },
  message: DeliverMessage,
  settings: DeliverSettings,
  now: Date,
): Promise<SendResult[]> {
  const db = env.DB;
  const { event, transition } = message;
  const sending = crypto.randomUUID();
  const { results: claimed } = await db
    .prepare(
      `UPDATE deliveries SET lease = ?4, lease_until = ?5, attempts = attempts + 1
       WHERE subscriber_id ${IN_IDS} AND event_id = ?2 AND transition = ?3 AND state = 'pending' AND due_at <= ?6
         AND (lease = ?7 OR lease_until IS NULL OR lease_until <= ?6)
       RETURNING subscriber_id AS id, attempts`,
    )
    .bind(
      jsonIds(message.subscriberIds),
      event.id,
      transition,
      sending,
      new Date(now.getTime() + SENDING_LEASE_MS).toISOString(),
      now.toISOString(),
      message.lease,
    )
    .all<{ id: number; attempts: number }>();
  if (claimed.length === 0) return [];
  const { results: targets } = await db
    .prepare(
      `SELECT id, channel, address, locale, data, expires_at AS expiresAt FROM subscribers WHERE id ${IN_IDS}
       ORDER BY id`,
    )
    .bind(jsonIds(claimed.map((row) => row.id)))
    .all<ClaimedRow>();
  const context: SendContext = {
    env,
    baseUrl: settings.baseUrl,
    rules: settings.rules,
    now,
    fetcher: settings.fetcher ?? fetch,
  };
  const delivery = { event, transition, id: deliveryId(event.id, transition) };
  const senders = new Map<string, Promise<(subscriber: Subscriber) => Promise<DeliveryOutcome>> | null>();
  const senderFor = (name: string) => {
    if (!senders.has(name)) {
      const channel = channelNamed(name);
      senders.set(name, channel?.ready(env) ? channel.sender(delivery, context) : null);
    }
    return senders.get(name)!;
  };
  const attemptsOf = new Map(claimed.map((row) => [row.id, row.attempts]));
  const results = await Promise.all(
    targets.map(async (target): Promise<SendResult> => {
      const outcome = await sendOne(target, senderFor, settings.rules, now);
      if (outcome.kind !== 'sent')
        console.warn(
          `delivery ${delivery.id} to ${target.channel} ${target.id}: ${outcome.kind} ${outcome.reason ?? ''}`,
        );
      return { id: target.id, attempts: attemptsOf.get(target.id) ?? 1, outcome };
    }),
  );
  const retries = await recordOutcomes(db, { eventId: event.id, transition, lease: sending }, results, now);
  await carrySoonRetries(env, message, retries, now);
  return results;
}

/**
 * The queue carries a retry due within a minute (a 429's short `Retry-After`, the first backoff) so that it need
 * not wait for the next cron run; the cron still queues every retry at its due time (docs/delivery.md, "One clock"),
 * and whichever comes first claims it, so a lost carrier costs nothing and neither sends twice. The carrier holds no
 * lease: it claims only a row that is due and unheld, at its own clock (its `at` is the due time).
 */
async function carrySoonRetries(
  env: DeliveryBindings,
  message: DeliverMessage,
  retries: readonly { id: number; due: Date }[],
  now: Date,
): Promise<void> {
  const soon = retries.filter(({ due }) => due.getTime() - now.getTime() <= QUEUE_CARRIED_RETRY_MS);
  if (soon.length === 0 || env.DELIVERY_QUEUE === undefined) return;
  const latest = new Date(Math.max(...soon.map(({ due }) => due.getTime())));
  const carrier: DeliverMessage = {
    ...message,
    subscriberIds: soon.map(({ id }) => id),
    lease: `carrier:${crypto.randomUUID()}`,
    at: latest.toISOString(),
  };
  const delaySeconds = Math.ceil((latest.getTime() - now.getTime()) / 1000);
  try {
    await env.DELIVERY_QUEUE.send(carrier, { contentType: 'json', delaySeconds });
  } catch (error) {
    console.warn('a retry was not handed to the queue; the cron queues it at its due time', error);
  }
}

/**
 * One subscriber's outcome: its channel's send, after the wing's own checks. A channel this deployment has not
 * configured, or a sender that throws (the service cannot send now: channel.ts), makes the delivery wait: tried again
 * later, and no failure of the subscriber's (the 7 days that drop one count its receiver's failures only).
 */
async function sendOne(
  target: ClaimedRow,
  senderFor: (name: string) => Promise<(subscriber: Subscriber) => Promise<DeliveryOutcome>> | null,
  rules: OutboundRules,
  now: Date,
): Promise<DeliveryOutcome> {
  const channel = channelNamed(target.channel);
  if (channel === undefined) return { kind: 'gone', reason: `no channel ${target.channel}` };
  if (target.expiresAt !== null && Date.parse(target.expiresAt) <= now.getTime())
    return { kind: 'gone', reason: 'its subscription ended' };
  // Checked again at send time: a row written while the loopback switch was on is not sent to once it is off, and
  // a row written before a rule is held to it.
  if (!channel.accepts(target.address, rules)) return { kind: 'gone', reason: 'no longer an allowed address' };
  const sender = senderFor(target.channel);
  if (sender === null) return { kind: 'wait', reason: `the ${target.channel} channel is not configured` };
  try {
    return await (await sender)(target);
  } catch (error) {
    return {
      kind: 'wait',
      reason: `could not be sent now (${error instanceof Error ? error.message : String(error)})`,
    };
  }
}
