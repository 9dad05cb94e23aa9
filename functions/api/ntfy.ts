import { providerKindTopics } from '../../src/core/delivery/topics.ts';
import { activationPage, NTFY_BODY_MAX_BYTES, NtfyForgetSchema, ntfyRequestSchema } from '../../src/core/ntfy/ntfy.ts';
import { CONTENT_TYPES } from '../../src/core/routes/policy.ts';
import { BASE_URL } from '../../src/server/base-url.ts';
import type { EdgeContext } from '../../src/server/context.ts';
import { subscriberCap } from '../../src/server/delivery/caps.ts';
import { deleteSubscriber, saveSubscriber } from '../../src/server/delivery/subscribers.ts';
import { subscriberWrites, WRITE_RETRY_AFTER_SECONDS } from '../../src/server/delivery/write-path.ts';
import { readJsonWrite, storing } from '../../src/server/http/json-write.ts';
import { channelFull, invalidRequest, jsonResponse } from '../../src/server/http/responses.ts';
import { allowsLoopbackReceivers } from '../../src/server/loopback.ts';
import type { EdgeHandlers } from '../route-handler.ts';

/**
 * ntfy's routes (decisions.md, "More channels"; docs/delivery.md, "ntfy"): subscribe a topic URL, stop, and the
 * activation page its first message links to. Every topic written waits for its activation: nothing is sent to it
 * but the activation message until the page's POST (src/server/delivery/channels/ntfy/index.ts).
 */

const unavailable = (retryAfterSeconds: number) =>
  jsonResponse(
    { error: 'ntfy_unavailable' },
    { status: 503, headers: { 'Retry-After': String(retryAfterSeconds), 'Cache-Control': 'no-store' } },
  );
const later = () => unavailable(WRITE_RETRY_AFTER_SECONDS);

const writes = subscriberWrites({ feature: 'ntfy', maxBytes: NTFY_BODY_MAX_BYTES, unavailable, ready: () => true });

/** The channel's code, loaded by its first use: most isolates never write a topic. */
const channel = () => import('../../src/server/delivery/channels/ntfy/index.ts');

/**
 * `POST /api/ntfy`: 201 for a new topic, 200 for a known one (its choices replaced); either way the topic waits for
 * activation again and is sent a new activation message, before the answer. A server refusing that message for good
 * is the write's 400, and the topic is not kept.
 */
async function handleSubscribe(context: EdgeContext): Promise<Response> {
  const schema = ntfyRequestSchema({ allowLoopbackReceiver: allowsLoopbackReceivers(context.env) });
  const body = await readJsonWrite(context, schema, NTFY_BODY_MAX_BYTES);
  if (!body.ok) return body.response;
  const { DB: db, DELIVERY_QUEUE: queue } = context.env;
  if (db === undefined || queue === undefined) return later();
  const request = body.value;
  return storing('ntfy', later, async () => {
    const { newActivationToken, sendActivation, ACTIVATION_WINDOW_MS } = await channel();
    const token = newActivationToken();
    const write = {
      channel: 'ntfy' as const,
      key: request.topic,
      address: request.topic,
      locale: request.locale,
      data: {
        token,
        activated: false,
        topics: providerKindTopics(request.providers, request.kinds),
        providers: request.providers,
        kinds: request.kinds,
      },
      // Not activated within a week: pruned as an ended subscription.
      expiresAt: new Date(context.now.getTime() + ACTIVATION_WINDOW_MS),
      // No topic rows until it is activated: the fan-out finds a subscriber only through them.
      topics: [],
    };
    const outcome = await saveSubscriber(db, write, subscriberCap('ntfy', context.env.SUBSCRIBER_CAPS), context.now);
    if (outcome === 'full') return channelFull('ntfy');
    const refused = await sendActivation(request, token, BASE_URL, context.now);
    if (refused !== undefined) {
      await deleteSubscriber(db, 'ntfy', request.topic);
      return invalidRequest([refused]);
    }
    const answer = { providers: request.providers, kinds: request.kinds, locale: request.locale, activated: false };
    return jsonResponse(answer, { status: outcome === 'created' ? 201 : 200 });
  });
}

/** `DELETE /api/ntfy`: 204, also for a topic never seen. */
const handleForget = (context: EdgeContext) =>
  writes.remove(context, NtfyForgetSchema, (request) => ({ channel: 'ntfy', key: request.topic }));

const page = (html: string, status: number) =>
  new Response(html, { status, headers: { 'Content-Type': CONTENT_TYPES.html, 'Cache-Control': 'no-store' } });

/**
 * The activation page. GET shows what will be sent and a button, and changes nothing (link previews and scanners
 * fetch it); POST, the button, activates. A wrong token or a topic not stored is the same `404` page.
 */
async function handleActivation(
  context: EdgeContext,
  { topic, token }: { topic: string; token: string },
  confirming: boolean,
): Promise<Response> {
  const db = context.env.DB;
  if (db === undefined) return later();
  return storing('ntfy', later, async () => {
    const { findByToken, activate } = await channel();
    const found = await findByToken(db, topic, token);
    if (found === undefined) return page(activationPage('unknown', 'en'), 404);
    const { locale, data } = found;
    if (confirming && !data.activated) await activate(db, found.id, data);
    if (confirming || data.activated) return page(activationPage('activated', locale), 200);
    const choices = { providers: data.providers, kinds: data.kinds };
    return page(activationPage('ask', locale, { topic, token, choices }), 200);
  });
}

export const NTFY_HANDLERS = {
  postNtfy: handleSubscribe,
  deleteNtfy: handleForget,
  getNtfyActivation: (context, { query }) => handleActivation(context, query, false),
  postNtfyActivation: (context, { query }) => handleActivation(context, query, true),
} satisfies Partial<EdgeHandlers>;
