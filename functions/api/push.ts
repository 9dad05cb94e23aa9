import { providerKindTopics } from '../../src/core/delivery/topics.ts';
import {
  PUSH_BODY_MAX_BYTES,
  subscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '../../src/core/push/subscription.ts';
import type { EdgeContext } from '../../src/server/context.ts';
import { readVapidKeys } from '../../src/server/delivery/channels/push/vapid.ts';
import { subscriberWrites } from '../../src/server/delivery/write-path.ts';
import { jsonResponse, pushUnavailable } from '../../src/server/http/responses.ts';
import { allowsLoopbackReceivers } from '../../src/server/loopback.ts';
import type { EdgeHandlers } from '../route-handler.ts';

/**
 * Web Push's routes (decisions.md, "Push notifications"; docs/delivery.md): the public key, subscribe and
 * unsubscribe. Every bad body is a 400 with issues, never a 500; the rest of a write is the delivery wing's.
 */

/** `GET /api/push/key`. */
export function handlePushKey(context: EdgeContext): Response {
  const keys = readVapidKeys(context.env);
  if (keys === null) return pushUnavailable();
  return jsonResponse({ publicKey: keys.publicKey });
}

const writes = subscriberWrites({
  feature: 'push',
  maxBytes: PUSH_BODY_MAX_BYTES,
  unavailable: pushUnavailable,
  ready: (env) => readVapidKeys(env) !== null,
});

/** `POST /api/push/subscriptions`: 201 for a new endpoint, 200 when its topics were replaced. */
const handleSubscribe = (context: EdgeContext) =>
  writes.save(
    context,
    subscribeRequestSchema({ allowLoopbackReceiver: allowsLoopbackReceivers(context.env) }),
    (request) => ({
      write: {
        channel: 'push',
        key: request.subscription.endpoint,
        address: request.subscription.endpoint,
        locale: request.locale,
        data: request.subscription.keys,
        expiresAt: request.subscription.expirationTime == null ? null : new Date(request.subscription.expirationTime),
        topics: providerKindTopics(request.providers, request.kinds),
      },
      answer: { providers: request.providers, kinds: request.kinds, locale: request.locale },
    }),
  );

/** `DELETE /api/push/subscriptions`: 204, also for an endpoint never seen. */
const handleUnsubscribe = (context: EdgeContext) =>
  writes.remove(context, UnsubscribeRequestSchema, (request) => ({ channel: 'push', key: request.endpoint }));

export const PUSH_HANDLERS = {
  getPushKey: handlePushKey,
  postPushSubscription: handleSubscribe,
  deletePushSubscription: handleUnsubscribe,
} satisfies Partial<EdgeHandlers>;
