import { z } from 'zod';
import { lazySchema } from '../lazy-schema.ts';
import { DEFAULT_OUTBOUND_RULES, type OutboundRules, outboundAddress } from '../outbound/address.ts';
import { addressLookupSchema, outboundAddressSchema } from '../outbound/address-schema.ts';
import { CHAT_PLATFORMS, chatPlatformOf } from '../outbound/chat-platform.ts';
import { PUSH_BODY_MAX_BYTES, SubscriptionTopicsSchema, TOPIC_FIELDS } from '../push/subscription.ts';

/**
 * The chat webhooks' write bodies (decisions.md, "Chat webhooks (Discord, Slack)"): what `POST /api/webhooks` and
 * `DELETE /api/webhooks` accept, and what the POST answers. The URL is an outbound address (src/core/outbound): it
 * parses into its stored form, so every spelling of one webhook is one subscription, and it must then be a Discord
 * webhook or a Slack incoming webhook (chat-platform.ts). The topics and language are push's. The OpenAPI document
 * describes the default rules (no loopback receiver).
 */

/** The largest body the write path reads: push's (decided: "size limit … as push"). */
export const CHAT_WEBHOOK_BODY_MAX_BYTES = PUSH_BODY_MAX_BYTES;

export const NOT_A_CHAT_WEBHOOK =
  'must be a Discord webhook (https://discord.com/api/webhooks/<id>/<token>) or a Slack incoming webhook (https://hooks.slack.com/services/…)';

/** A webhook URL: the outbound-address policy first (its own words), then one of the two platforms. */
const webhookUrlSchema = (rules: OutboundRules) =>
  outboundAddressSchema(rules)
    .superRefine((url, context) => {
      // An address the policy refused has its issue already: one clear issue per problem.
      if (outboundAddress(url, rules).ok && chatPlatformOf(url) === null)
        context.addIssue({ code: 'custom', message: NOT_A_CHAT_WEBHOOK });
    })
    .describe('a Discord webhook or a Slack incoming webhook URL, as the platform gave it');

/** `POST /api/webhooks`'s body under `rules` (the setting of the loopback test receiver). */
export const chatWebhookRequestSchema = (rules: OutboundRules) =>
  z.object({ url: webhookUrlSchema(rules), ...TOPIC_FIELDS });

export const ChatWebhookRequestSchema = lazySchema(() =>
  chatWebhookRequestSchema(DEFAULT_OUTBOUND_RULES).meta({
    id: 'ChatWebhookRequest',
  }),
);
export type ChatWebhookRequest = z.infer<typeof ChatWebhookRequestSchema>;

/** `DELETE /api/webhooks`'s body: the URL to forget, in the stored form (an unknown one is no error). */
export const ChatWebhookForgetSchema = z.object({ url: addressLookupSchema }).meta({ id: 'ChatWebhookForget' });

/** What the POST answers: the platform the URL belongs to, and the topics and language now stored for it. */
export const ChatWebhookTopicsSchema = lazySchema(() =>
  z
    .strictObject({ platform: z.enum(CHAT_PLATFORMS), ...SubscriptionTopicsSchema.shape })
    .meta({ id: 'ChatWebhookTopics' }),
);
export type ChatWebhookTopics = z.infer<typeof ChatWebhookTopicsSchema>;
