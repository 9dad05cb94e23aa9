import {
  PUSH_BODY_MAX_BYTES,
  subscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '../../src/core/push/subscription.ts';
import type { EdgeContext } from '../../src/server/context.ts';
import { readJsonWrite, storing } from '../../src/server/http/json-write.ts';
import { jsonResponse, pushUnavailable } from '../../src/server/http/responses.ts';
import { deleteSubscription, saveSubscription } from '../../src/server/push/subscriptions-store.ts';
import { allowsLoopbackReceiver, readVapidKeys } from '../../src/server/push/vapid.ts';
import type { z } from 'zod';
import type { EdgeHandlers } from '../route-handler.ts';

/**
 * Web Push's routes (decisions.md, "Push notifications"; docs/push.md): the public key, and the one write path
 * of the service: subscribe and unsubscribe. Every bad body is a 400 with issues, never a 500.
 */

export const PUSH_WRITES_PER_MINUTE = 10;

/**
 * How long a client should wait before writing again when push is off or its database cannot be reached: D1
 * answers again within seconds once a lock or an overload passes, and a deployment without push needs a person.
 */
export const PUSH_RETRY_AFTER_SECONDS = 30;

/** `GET /api/push/key`. */
export function handlePushKey(context: EdgeContext): Response {
  const keys = readVapidKeys(context.env);
  if (keys === null) return pushUnavailable();
  return jsonResponse({ publicKey: keys.publicKey });
}

/**
 * What every write goes through: the shared reading of a JSON write (the limit, the media type, the size, the
 * schema: src/server/http/json-write.ts), then push being configured.
 */
async function readWrite<S extends z.ZodType>(
  context: EdgeContext,
  schema: S,
): Promise<{ ok: true; value: z.infer<S>; db: D1Database } | { ok: false; response: Response }> {
  const read = await readJsonWrite(context, schema, PUSH_BODY_MAX_BYTES);
  if (!read.ok) return read;
  const { env } = context;
  if (env.PUSH_DB === undefined || readVapidKeys(env) === null)
    return { ok: false, response: pushUnavailable(PUSH_RETRY_AFTER_SECONDS) };
  return { ok: true, value: read.value, db: env.PUSH_DB };
}

const storingPush = (write: () => Promise<Response>) =>
  storing('push', () => pushUnavailable(PUSH_RETRY_AFTER_SECONDS), write);

/** `POST /api/push/subscriptions`: 201 for a new endpoint, 200 when its topics were replaced. */
export async function handleSubscribe(context: EdgeContext): Promise<Response> {
  const schema = subscribeRequestSchema({ allowLoopbackReceiver: allowsLoopbackReceiver(context.env) });
  const write = await readWrite(context, schema);
  if (!write.ok) return write.response;
  return storingPush(async () => {
    const { created, topics } = await saveSubscription(write.db, write.value, context.now);
    return jsonResponse(topics, { status: created ? 201 : 200 });
  });
}

/** `DELETE /api/push/subscriptions`: 204, also for an endpoint never seen. */
export async function handleUnsubscribe(context: EdgeContext): Promise<Response> {
  const write = await readWrite(context, UnsubscribeRequestSchema);
  if (!write.ok) return write.response;
  return storingPush(async () => {
    await deleteSubscription(write.db, write.value.endpoint);
    return new Response(null, { status: 204 });
  });
}

export const PUSH_HANDLERS = {
  getPushKey: handlePushKey,
  postPushSubscription: handleSubscribe,
  deletePushSubscription: handleUnsubscribe,
} satisfies Partial<EdgeHandlers>;
