import {
  CHAT_WEBHOOK_BODY_MAX_BYTES,
  ChatWebhookForgetSchema,
  chatWebhookRequestSchema,
} from '../../src/core/chat/webhook-request.ts';
import { providerKindTopics } from '../../src/core/delivery/topics.ts';
import { chatPlatformOf } from '../../src/core/outbound/chat-platform.ts';
import { BASE_URL } from '../../src/server/base-url.ts';
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

/**
 * `POST /api/webhooks`: 201 for a new URL, whose channel is sent a message saying it is connected; 200 when its topics
 * were replaced (nothing is sent: the channel was told when it was connected); 400 when the platform refused that
 * first message for good (docs/delivery.md, "Writing a subscription").
 */
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
        // A new webhook is told at once that it is connected; a platform that refuses it refuses the write. The
        // chat channel's code is loaded by its first use, as the hub's is: most isolates never connect a webhook.
        firstMessage: async () =>
          (await import('../../src/server/delivery/channels/chat/index.ts')).sendConnectedMessage(
            { ...request, platform },
            BASE_URL,
            context.now,
          ),
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
