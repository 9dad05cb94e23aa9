import type { QueryIssue } from '../../../../core/api/query.ts';
import { type ConnectedChoices, connectedMessage } from '../../../../core/chat/connected-message.ts';
import { type ChatMessage, chatMessage } from '../../../../core/chat/message.ts';
import { outboundAddress } from '../../../../core/outbound/address.ts';
import { type ChatPlatform, chatPlatformOf } from '../../../../core/outbound/chat-platform.ts';
import type { Locale } from '../../../../core/vocabulary.ts';
import type { DeliveryChannel } from '../../channel.ts';
import { postChatMessage } from './post-message.ts';

/**
 * Discord and Slack webhooks (decisions.md, "Chat webhooks"): one channel each, told apart by the webhook's address
 * (src/core/outbound/chat-platform.ts), each with its platform's message per language (src/core/chat/message.ts).
 * A 429 is the platform pacing a working webhook (`wait`): it waits as asked and is no failure.
 */
const chatChannel = (platform: ChatPlatform): DeliveryChannel => ({
  name: platform,
  ready: () => true,
  accepts: (address, rules) => outboundAddress(address, rules).ok && chatPlatformOf(address) === platform,
  async sender({ event, transition, id }, { baseUrl, now, fetcher }) {
    const messages = new Map<Locale, ChatMessage>();
    const messageFor = (locale: Locale) => {
      if (!messages.has(locale)) messages.set(locale, chatMessage(platform, event, transition, locale, baseUrl));
      return messages.get(locale)!;
    };
    return (subscriber) => postChatMessage(subscriber.address, messageFor(subscriber.locale ?? 'en'), now, fetcher, id);
  },
});

export const discordChannel = chatChannel('discord');
export const slackChannel = chatChannel('slack');

const PLATFORM_NAMES: Record<ChatPlatform, string> = { discord: 'Discord', slack: 'Slack' };

/**
 * The message a new webhook is sent at once, from its write path (functions/api/webhooks.ts; docs/delivery.md,
 * "Writing a subscription"), through the same send as every chat message. The platform refusing it for good (404 or
 * 410: no such webhook; 401, 403, another 4xx or a redirect: not a webhook this URL can post to) is the issue that
 * refuses the subscription. A platform that is only busy or down (429, 5xx, no answer) says nothing of the URL: the
 * subscription stands, and the message is not tried again.
 */
export async function sendConnectedMessage(
  subscription: ConnectedChoices & { url: string; platform: ChatPlatform; locale: Locale },
  baseUrl: string,
  now: Date,
  fetcher: typeof fetch = fetch,
): Promise<QueryIssue | undefined> {
  const { url, platform, locale } = subscription;
  const outcome = await postChatMessage(
    url,
    connectedMessage(platform, subscription, locale, baseUrl, now),
    now,
    fetcher,
  );
  if (outcome.kind === 'sent') return undefined;
  if (outcome.kind === 'wait' || outcome.kind === 'retry') {
    console.log(`a new ${platform} webhook's connected message was not taken (${outcome.reason}); it is stored`);
    return undefined;
  }
  const what =
    outcome.kind === 'gone'
      ? 'no such webhook (deleted, or its URL mistyped)'
      : 'this URL is not a webhook the service can post to (its token mistyped?)';
  return {
    code: 'webhook_refused',
    path: ['url'],
    message: `${PLATFORM_NAMES[platform]} answered HTTP ${outcome.status} to a test message: ${what}. Copy the webhook URL again from the channel’s settings; nothing was stored.`,
  };
}
