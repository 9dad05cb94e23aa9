import {
  CHAT_WEBHOOK_BODY_MAX_BYTES,
  ChatWebhookForgetSchema,
  chatWebhookRequestSchema,
} from '../../src/core/chat/webhook-request.ts';
import { chatPlatformOf } from '../../src/core/outbound/chat-platform.ts';
import type { EdgeContext } from '../../src/server/context.ts';
import { readJsonWrite, storing } from '../../src/server/http/json-write.ts';
import { jsonResponse, webhooksUnavailable } from '../../src/server/http/responses.ts';
import { allowsLoopbackReceiver, readVapidKeys } from '../../src/server/push/vapid.ts';
import { deleteChatWebhook, saveChatWebhook } from '../../src/server/webhooks/store.ts';
import type { EdgeHandlers } from '../route-handler.ts';

/**
 * The chat webhooks' routes (decisions.md, "Chat webhooks (Discord, Slack)"; docs/push.md): connect a Discord or
 * Slack channel, and stop. Errors, size limit, media type and the write limit are push's (src/server/http/json-write.ts).
 */

/** As push's: D1 answers again within seconds once a lock or an overload passes. */
export const WEBHOOKS_RETRY_AFTER_SECONDS = 30;

const unavailable = () => webhooksUnavailable(WEBHOOKS_RETRY_AFTER_SECONDS);

/**
 * The webhooks' store, or `undefined` while their delivery path is off. They ride push's (its D1, queue and cron,
 * which runs only with the VAPID secrets: src/server/push/worker-handlers.ts): a webhook accepted there would
 * never be sent to.
 */
function storeOf(context: EdgeContext): D1Database | undefined {
  const { env } = context;
  if (env.PUSH_QUEUE === undefined || readVapidKeys(env) === null) return undefined;
  return env.PUSH_DB;
}

/** `POST /api/webhooks`: 201 for a new URL, 200 when its topics were replaced. */
async function handleConnect(context: EdgeContext): Promise<Response> {
  const schema = chatWebhookRequestSchema({ allowLoopbackReceiver: allowsLoopbackReceiver(context.env) });
  const write = await readJsonWrite(context, schema, CHAT_WEBHOOK_BODY_MAX_BYTES);
  if (!write.ok) return write.response;
  const db = storeOf(context);
  // The schema let through only URLs of one of the two platforms.
  const platform = chatPlatformOf(write.value.url);
  if (db === undefined || platform === null) return unavailable();
  return storing('webhooks', unavailable, async () => {
    const { created, topics } = await saveChatWebhook(db, write.value, platform, context.now);
    return jsonResponse(topics, { status: created ? 201 : 200 });
  });
}

/** `DELETE /api/webhooks`: 204, also for a URL never seen. */
async function handleDisconnect(context: EdgeContext): Promise<Response> {
  const write = await readJsonWrite(context, ChatWebhookForgetSchema, CHAT_WEBHOOK_BODY_MAX_BYTES);
  if (!write.ok) return write.response;
  const db = storeOf(context);
  if (db === undefined) return unavailable();
  return storing('webhooks', unavailable, async () => {
    await deleteChatWebhook(db, write.value.url);
    return new Response(null, { status: 204 });
  });
}

export const WEBHOOK_HANDLERS = {
  postChatWebhook: handleConnect,
  deleteChatWebhook: handleDisconnect,
} satisfies Partial<EdgeHandlers>;
