import type { z } from 'zod';
import type { QueryIssue } from '../../core/api/query.ts';
import type { ChannelName } from '../../core/delivery/channels.ts';
import type { EdgeContext } from '../context.ts';
import { readJsonWrite, storing } from '../http/json-write.ts';
import { channelFull, invalidRequest, jsonResponse } from '../http/responses.ts';
import type { DeliveryBindings } from './bindings.ts';
import { subscriberCap } from './caps.ts';
import { deleteSubscriber, saveSubscriber, type SubscriberWrite } from './subscribers.ts';

/**
 * The JSON write paths of the channels whose subscribers write themselves (push, chat webhooks): the body read as
 * every write is (the limit, the media type, the size, the schema: src/server/http/json-write.ts), then the wing
 * being there (the state database, the queue, and what the channel itself needs), then the store, within the
 * channel's cap. A store that cannot be reached is the feature's `503 …_unavailable` with Retry-After.
 */

/** D1 and the queue answer again within seconds once a lock or an overload passes. */
export const WRITE_RETRY_AFTER_SECONDS = 30;

export interface WritePathOptions {
  /** The feature's name in its errors and logs (`push`, `webhooks`). */
  feature: string;
  maxBytes: number;
  unavailable: (retryAfterSeconds: number) => Response;
  /** What the channel itself needs beyond the wing (push: the VAPID keys). */
  ready(env: DeliveryBindings): boolean;
}

/**
 * A new subscriber whose receiver refused its first message: forgotten, and the write is `400` with the issue. If the
 * database fails just then, the row stays and the answer is the same: its deliveries meet the same refusal, and the
 * wing removes it (404 and 410 at once, any other refusal after 7 days of failures).
 */
async function forgetRefused(db: D1Database, write: SubscriberWrite, issue: QueryIssue): Promise<Response> {
  try {
    await deleteSubscriber(db, write.channel, write.key);
  } catch (error) {
    console.error(`a refused new ${write.channel} subscriber could not be forgotten; its deliveries will be`, error);
  }
  return invalidRequest([issue]);
}

export function subscriberWrites({ feature, maxBytes, unavailable, ready }: WritePathOptions) {
  const later = () => unavailable(WRITE_RETRY_AFTER_SECONDS);
  /** The write's body, or the answer that ends it; then the database, when the wing is there. */
  async function read<S extends z.ZodType>(context: EdgeContext, schema: S) {
    const body = await readJsonWrite(context, schema, maxBytes);
    if (!body.ok) return body;
    const { DB: db, DELIVERY_QUEUE: queue } = context.env;
    if (db === undefined || queue === undefined || !ready(context.env))
      return { ok: false as const, response: later() };
    return { ok: true as const, value: body.value, db };
  }
  return {
    /**
     * Stores a subscriber: 201 with `answer` for a new one, 200 when a known one was replaced, 503 when full. A new
     * one is then sent `firstMessage` when the channel has one (chat: the connected message); an issue it returns
     * (the receiver refused it for good) forgets the subscriber again and is the write's 400.
     */
    async save<S extends z.ZodType>(
      context: EdgeContext,
      schema: S,
      toWrite: (request: z.infer<S>) => {
        write: SubscriberWrite;
        answer: object;
        firstMessage?: () => Promise<QueryIssue | undefined>;
      },
    ): Promise<Response> {
      const body = await read(context, schema);
      if (!body.ok) return body.response;
      const { write, answer, firstMessage } = toWrite(body.value);
      return storing(feature, later, async () => {
        const cap = subscriberCap(write.channel, context.env.SUBSCRIBER_CAPS);
        const outcome = await saveSubscriber(body.db, write, cap, context.now);
        if (outcome === 'full') return channelFull(write.channel);
        // Stored first, so that the cap and a failing database are met before anything is sent.
        const refused = outcome === 'created' ? await firstMessage?.() : undefined;
        if (refused !== undefined) return forgetRefused(body.db, write, refused);
        return jsonResponse(answer, { status: outcome === 'created' ? 201 : 200 });
      });
    },
    /** Forgets a subscriber: 204, also for one never seen. */
    async remove<S extends z.ZodType>(
      context: EdgeContext,
      schema: S,
      toKey: (request: z.infer<S>) => { channel: ChannelName; key: string },
    ): Promise<Response> {
      const body = await read(context, schema);
      if (!body.ok) return body.response;
      const { channel, key } = toKey(body.value);
      return storing(feature, later, async () => {
        await deleteSubscriber(body.db, channel, key);
        return new Response(null, { status: 204 });
      });
    },
  };
}
