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
