import { TRANSLATIONS } from '../i18n/index.ts';
import type { ChatPlatform } from '../outbound/chat-platform.ts';
import type { Transition } from '../push/due.ts';
import { pushPayload } from '../push/payload.ts';
import type { Event } from '../schemas.ts';
import { localizedPath } from '../site.ts';
import type { Locale } from '../vocabulary.ts';
import { discordLink, discordText } from './discord-text.ts';
import { slackLink, slackText } from './slack-text.ts';

/**
 * The message a chat webhook is sent for one (event, transition) (decisions.md, "Chat webhooks"), in the
 * subscription's language and in each platform's documented format: Discord's execute-webhook body (`content` and
 * one embed with a title, the URL of the event's anchor, a description and a timestamp) and Slack's incoming-
 * webhook body (`text`, the notification's words, and Block Kit blocks with the same). The title and body are the
 * push notification's (src/core/push/payload.ts), so a reset reads the same in a browser and in a channel.
 *
 * Everything fits the platforms' limits by construction: the title is a provider and a kind, the body one sentence
 * of ours and a summary of at most 280 characters (the event schema), the URLs the site's and the event's own.
 */

export interface DiscordMessage {
  content: string;
  /** Nothing in a message may ping anyone: a post's text is the provider's, not ours to mention people with. */
  allowed_mentions: { parse: [] };
  embeds: [{ title: string; url: string; description: string; timestamp: string }];
}

export interface SlackMessage {
  text: string;
  blocks: [
    { type: 'section'; text: { type: 'mrkdwn'; text: string } },
    { type: 'context'; elements: [{ type: 'mrkdwn'; text: string }] },
  ];
}

export type ChatMessage = DiscordMessage | SlackMessage;

/** `{base_url}/<provider>#event-<id>`, on the page in the subscription's language (`/zh/<provider>` in Chinese). */
const anchorUrl = (baseUrl: string, event: Event, locale: Locale) =>
  `${baseUrl.replace(/\/+$/, '')}${localizedPath(`/${event.provider}`, locale)}#event-${event.id}`;

/** The moment the message is about: the announcement, or for an `effective` message the reset's effect. */
const momentOf = (event: Event, transition: Transition) =>
  new Date(transition === 'effective' ? (event.effectiveAt ?? event.announcedAt) : event.announcedAt).toISOString();

export function chatMessage(
  platform: ChatPlatform,
  event: Event,
  transition: Transition,
  locale: Locale,
  baseUrl: string,
): ChatMessage {
  const { title, body } = pushPayload(event, transition, locale, baseUrl);
  const words = TRANSLATIONS[locale].chat;
  const url = anchorUrl(baseUrl, event, locale);
  const moment = momentOf(event, transition);
  if (platform === 'discord')
    return {
      content: title,
      allowed_mentions: { parse: [] },
      embeds: [
        {
          title,
          url,
          // The body carries the post's summary, shown as text (discord-text.ts: no link, mention or format of its
          // own); then a masked link of ours, its URL's `(` and `)` percent-encoded so that it ends where Discord looks.
          description: `${discordText(body)}\n\n${discordLink(event.sourceUrl, words.originalPost)}`,
          timestamp: moment,
        },
      ],
    };
  const seconds = Math.floor(Date.parse(moment) / 1000);
  const label = transition === 'effective' ? words.inEffect : words.announced;
  // `<!date^…|fallback>`: each reader sees the moment in their own time zone; the fallback is the UTC minute, in the
  // message's language (`2026-06-15 00:00 UTC`, `2026年6月15日 00:00（UTC）`).
  const date = `<!date^${seconds}^{date_short_pretty} {time}|${TRANSLATIONS[locale].formats.minute(moment)}>`;
  return {
    text: slackText(title),
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*${slackLink(url, title)}*\n${slackText(body)}` } },
      {
        type: 'context',
        elements: [
          {
            type: 'mrkdwn',
            text: `${slackText(label)} ${date}${words.separator}${slackLink(event.sourceUrl, words.originalPost)}`,
          },
        ],
      },
    ],
  };
}
