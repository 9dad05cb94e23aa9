import {
  CHAT_WEBHOOK_BODY_MAX_BYTES,
  ChatWebhookForgetSchema,
  chatWebhookRequestSchema,
} from '../../src/core/chat/webhook-request.ts';
import { providerKindTopics } from '../../src/core/delivery/topics.ts';
import { chatPlatformOf } from '../../src/core/outbound/chat-platform.ts';
import type { EdgeContext } from '../../src/server/context.ts';
import { subscriberWrites } from '../../src/server/delivery/write-path.ts';
import { webhooksUnavailable } from '../../src/server/http/responses.ts';
import { allowsLoopbackReceivers } from '../../src/server/loopback.ts';
import type { EdgeHandlers } from '../route-handler.ts';

/**
 * The chat webhooks' routes (decisions.md, "Chat webhooks (Discord, Slack)"; docs/delivery.md): connect a Discord
 * or Slack channel, and stop. A webhook is a subscriber of the channel its address belongs to (`discord` or
 * `slack`); everything after the body is the delivery wing's.
 */

const writes = subscriberWrites({
  feature: 'webhooks',
  maxBytes: CHAT_WEBHOOK_BODY_MAX_BYTES,
  unavailable: webhooksUnavailable,
  ready: () => true,
});

/** `POST /api/webhooks`: 201 for a new URL, 200 when its topics were replaced. */
const handleConnect = (context: EdgeContext) =>
  writes.save(
    context,
    chatWebhookRequestSchema({ allowLoopbackReceiver: allowsLoopbackReceivers(context.env) }),
    (request) => {
      // The schema let through only URLs of one of the two platforms.
      const platform = chatPlatformOf(request.url) ?? 'discord';
      return {
        write: {
          channel: platform,
          key: request.url,
          address: request.url,
          locale: request.locale,
          data: {},
          expiresAt: null,
          topics: providerKindTopics(request.providers, request.kinds),
        },
        answer: { platform, providers: request.providers, kinds: request.kinds, locale: request.locale },
      };
    },
  );

/** `DELETE /api/webhooks`: 204, also for a URL never seen. */
const handleDisconnect = (context: EdgeContext) =>
  writes.remove(context, ChatWebhookForgetSchema, (request) => ({
    // A URL of neither platform was never stored: looked up under Discord, it finds nothing, and the answer is 204.
    channel: chatPlatformOf(request.url) ?? 'discord',
    key: request.url,
  }));

export const WEBHOOK_HANDLERS = {
  postChatWebhook: handleConnect,
  deleteChatWebhook: handleDisconnect,
} satisfies Partial<EdgeHandlers>;
