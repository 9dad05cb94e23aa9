import { TRANSLATIONS } from '../i18n/index.ts';
import { fillText } from '../i18n/template.ts';
import type { ChatPlatform } from '../outbound/chat-platform.ts';
import { localizedPath, SERVICE_NAME } from '../site.ts';
import { EVENT_KINDS, type EventKind, type Locale, PROVIDERS, type Provider } from '../vocabulary.ts';
import type { ChatMessage } from './message.ts';
import { slackLink, slackText } from './slack-text.ts';

/** What a new chat webhook was connected for: the subscription's providers and kinds. */
export interface ConnectedChoices {
  providers: readonly Provider[];
  kinds: readonly EventKind[];
}

/**
 * The one message a channel is sent when its webhook is connected (docs/delivery.md, "Writing a subscription"): that
 * it is connected, what will be posted there (the providers and kinds, in the enumeration's order, in the
 * subscription's language) and how to stop, with a link to "Notify me" on the board in that language. In the same
 * documented shapes as an event's message (message.ts): Discord's `content` and one embed (title, url, description,
 * timestamp: `now`), Slack's `text` and a section and a context block.
 */
export function connectedMessage(
  platform: ChatPlatform,
  choices: ConnectedChoices,
  locale: Locale,
  baseUrl: string,
  now: Date,
): ChatMessage {
  const labels = TRANSLATIONS[locale];
  const words = labels.chatConnected;
  const providers = PROVIDERS.filter((provider) => choices.providers.includes(provider))
    .map((provider) => labels.providers[provider])
    .join(words.listSeparator);
  const kinds = EVENT_KINDS.filter((kind) => choices.kinds.includes(kind))
    .map((kind) => labels.kinds[kind])
    .join(words.listSeparator);
  const boardUrl = `${baseUrl.replace(/\/+$/, '')}${localizedPath('/', locale)}#notify`;
  const title = fillText(words.title, { service: SERVICE_NAME });
  if (platform === 'discord')
    return {
      content: title,
      allowed_mentions: { parse: [] },
      embeds: [
        {
          title,
          url: boardUrl,
          description: `${fillText(words.what, { providers, kinds })}\n\n${fillText(words.stop, { board: `[${words.board}](${boardUrl})` })}`,
          timestamp: now.toISOString(),
        },
      ],
    };
  const what = fillText(words.what, { providers: slackText(providers), kinds: slackText(kinds) }, slackText);
  const stop = fillText(words.stop, { board: slackLink(boardUrl, words.board) }, slackText);
  return {
    text: slackText(title),
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*${slackLink(boardUrl, title)}*\n${what}` } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: stop }] },
    ],
  };
}
