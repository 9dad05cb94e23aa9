import { readRequestBody } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { issuesOf, type QueryIssue } from '../../src/core/api/query.ts';
import {
  PUSH_BODY_MAX_BYTES,
  subscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '../../src/core/push/subscription.ts';
import type { EdgeContext } from '../../src/server/context.ts';
import { secondsLeftInWindow, withinRateLimit } from '../../src/server/http/rate-limit.ts';
import { isJsonBody } from '../../src/server/http/request.ts';
import { invalidRequest, jsonResponse, pushUnavailable, rateLimited } from '../../src/server/http/responses.ts';
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

const issue = (code: string, message: string, path: (string | number)[] = []): QueryIssue => ({ code, path, message });

/**
 * What every write goes through, in this order: the per-IP limit (bad bodies count too, so that probing is
 * limited as well), the media type, the size, JSON, an object, the schema, then push being configured.
 */
async function readWrite<S extends z.ZodType>(
  context: EdgeContext,
  schema: S,
): Promise<{ ok: true; value: z.infer<S>; db: D1Database } | { ok: false; response: Response }> {
  const { request, env } = context;
  if (env.PUSH_WRITE_LIMITER !== undefined && !(await withinRateLimit(env.PUSH_WRITE_LIMITER, request, 'Push')))
    return { ok: false, response: rateLimited(secondsLeftInWindow(context.now)) };
  if (!isJsonBody(request))
    return {
      ok: false,
      response: invalidRequest(
        [issue('unsupported_media_type', 'send the body as Content-Type: application/json')],
        415,
      ),
    };
  const body = await readRequestBody(request, PUSH_BODY_MAX_BYTES);
  if (body.tooLarge)
    return {
      ok: false,
      response: invalidRequest([issue('too_big', `the body must be at most ${PUSH_BODY_MAX_BYTES} bytes`)]),
    };
  let json: unknown;
  try {
    json = JSON.parse(body.text);
  } catch {
    return { ok: false, response: invalidRequest([issue('invalid_json', 'the body is not JSON')]) };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return { ok: false, response: invalidRequest([issue('invalid_type', 'the body must be a JSON object')]) };
  // Async: the browser's key is checked with Web Crypto (src/core/push/subscriber-keys.ts).
  const parsed = await schema.safeParseAsync(json);
  if (!parsed.success) return { ok: false, response: invalidRequest(issuesOf(parsed.error)) };
  if (env.PUSH_DB === undefined || readVapidKeys(env) === null)
    return { ok: false, response: pushUnavailable(PUSH_RETRY_AFTER_SECONDS) };
  return { ok: true, value: parsed.data, db: env.PUSH_DB };
}

/**
 * The store's part of a write. D1 throws when its database is locked, overloaded, missing or not migrated: that is
 * push being unavailable for a while (503 with Retry-After, decisions.md "Outbound addresses"), not a fault of the
 * request nor a bug to hide behind `500 internal_error`.
 */
async function storing(write: () => Promise<Response>): Promise<Response> {
  try {
    return await write();
  } catch (error) {
    console.error('push store unavailable', error);
    return pushUnavailable(PUSH_RETRY_AFTER_SECONDS);
  }
}

/** `POST /api/push/subscriptions`: 201 for a new endpoint, 200 when its topics were replaced. */
export async function handleSubscribe(context: EdgeContext): Promise<Response> {
  const schema = subscribeRequestSchema({ allowLoopbackReceiver: allowsLoopbackReceiver(context.env) });
  const write = await readWrite(context, schema);
  if (!write.ok) return write.response;
  return storing(async () => {
    const { created, topics } = await saveSubscription(write.db, write.value, context.now);
    return jsonResponse(topics, { status: created ? 201 : 200 });
  });
}

/** `DELETE /api/push/subscriptions`: 204, also for an endpoint never seen. */
export async function handleUnsubscribe(context: EdgeContext): Promise<Response> {
  const write = await readWrite(context, UnsubscribeRequestSchema);
  if (!write.ok) return write.response;
  return storing(async () => {
    await deleteSubscription(write.db, write.value.endpoint);
    return new Response(null, { status: 204 });
  });
}

export const PUSH_HANDLERS = {
  getPushKey: handlePushKey,
  postPushSubscription: handleSubscribe,
  deletePushSubscription: handleUnsubscribe,
} satisfies Partial<EdgeHandlers>;
