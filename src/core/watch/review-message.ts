import { discordText, discordUrl, jsonInCodeBlock } from '../chat/discord-text.ts';
import { slackText, slackUrl } from '../chat/slack-text.ts';
import { TRANSLATIONS } from '../i18n/index.ts';
import type { ChatPlatform } from '../outbound/chat-platform.ts';
import type { Event } from '../schemas.ts';

/**
 * The message that tells the deployment's review channel of a new draft (decisions.md, "Watched every minute,
 * reviewed at once"), in each platform's documented format as the chat webhooks are (Discord `content` and one
 * embed; Slack `text` and blocks): the draft's fields, its original post, and a one-click link that opens the
 * repository's web editor with the event file filled in. The file is complete and valid as it is; marking it
 * verified is the reviewer's only edit, and the pull request it becomes stays the manual check.
 *
 * In English only: the channel is the maintainers', and it names the file's fields, which are English.
 *
 * The post's text is shown as text (decisions.md, "Confirmed within a minute"): no link, mention or formatting of
 * its own reaches the channel. On Discord every Markdown mark of the summary and of the fields is escaped
 * (src/core/chat/discord-text.ts) and the original post is `<url>`, a link to that URL and nothing else; on Slack
 * `&`, `<` and `>` are escaped (src/core/chat/slack-text.ts) and the post's section is `verbatim`, so that no bare
 * URL, channel name or mention in it is turned into a link. A file shown to paste is in a code block that its
 * text cannot close (a backtick, only ever inside a JSON string, is written `\u0060`).
 */

/** A draft as the watcher stored it: the event, its file's path under the events folder, and the file. */
export interface ReviewDraft {
  event: Event;
  /** `<provider>/<id>.json`. */
  path: string;
  file: string;
}

/** The events folder in the repository: where the link's file is created. */
export const REPOSITORY_EVENTS_FOLDER = 'content/events';

/** `{REPOSITORY_URL}/new/main?filename=content/events/<provider>/<id>.json` (ids need no escaping). */
const editorBase = (repositoryUrl: string, draft: Pick<ReviewDraft, 'path'>) =>
  `${repositoryUrl}/new/main?filename=${REPOSITORY_EVENTS_FOLDER}/${draft.path}`;

/** The one-click link: the repository's web editor with the event file filled in. */
export const reviewLink = (repositoryUrl: string, draft: Pick<ReviewDraft, 'path' | 'file'>): string =>
  `${editorBase(repositoryUrl, draft)}&value=${encodeURIComponent(draft.file)}`;

/** Discord's limits on a message (an embed's description) and Slack's on a button's URL. */
export const DISCORD_DESCRIPTION_MAX = 4096;
export const SLACK_BUTTON_URL_MAX = 3000;
const SLACK_TEXT_MAX = 3000;

const WORDS = {
  intro: 'New draft to review',
  open: 'Open the file in the repository’s editor',
  confirm: 'Confirm or reject on the review page',
  confirmNote: 'publishes at once, without a pull request; the link works for 24 hours, once.',
  steps: 'Check it against the original post, set "verified": true (the only edit needed), and propose the change.',
  tooLong: (platform: string) =>
    `The one-click link is longer than ${platform} allows for this post. Open the editor and paste the file below:`,
};

const titleOf = ({ provider, kind }: Event) => `${TRANSLATIONS.en.providers[provider]}: ${TRANSLATIONS.en.kinds[kind]}`;
const introOf = (event: Event) => `${WORDS.intro}: ${titleOf(event)} (${event.sourceAccount})`;

/** The draft's fields, name and value, as the file holds them. */
const fieldsOf = (draft: ReviewDraft): [string, string][] => [
  ['provider', draft.event.provider],
  ['kind', draft.event.kind],
  ['scope', draft.event.scope],
  ['announcedAt', draft.event.announcedAt],
  ['effectiveAt', draft.event.effectiveAt ?? 'null'],
  ['sourceAccount', draft.event.sourceAccount],
  ['file', `${REPOSITORY_EVENTS_FOLDER}/${draft.path}`],
];

/**
 * The JSON body to POST to the review webhook of `platform`; with `confirmUrl` (the review page's signed link,
 * src/core/review/token.ts, when the deployment has REVIEW_SIGNING_KEY) it offers that page beside the editor link.
 */
export function reviewMessage(
  platform: ChatPlatform,
  draft: ReviewDraft,
  repositoryUrl: string,
  confirmUrl?: string,
): object {
  return platform === 'discord'
    ? discordMessage(draft, repositoryUrl, confirmUrl)
    : slackMessage(draft, repositoryUrl, confirmUrl);
}

function discordMessage(draft: ReviewDraft, repositoryUrl: string, confirmUrl: string | undefined) {
  const { event } = draft;
  const fields = fieldsOf(draft)
    .map(([name, value]) => `**${name}** ${discordText(value)}`)
    .join('\n');
  const head = `${quoted(discordText(event.summary))}\n\n${fields}\n**original post** <${discordUrl(event.sourceUrl)}>\n\n${
    confirmUrl === undefined ? '' : `[${WORDS.confirm}](${discordUrl(confirmUrl)}): ${WORDS.confirmNote}\n\n`
  }`;
  const link = reviewLink(repositoryUrl, draft);
  // `(` and `)`, which encodeURIComponent leaves as they are, would end the masked link inside a summary's text.
  const withLink = `${head}[${WORDS.open}](${discordUrl(link)}). ${WORDS.steps}`;
  const description =
    withLink.length <= DISCORD_DESCRIPTION_MAX
      ? withLink
      : `${head}${WORDS.tooLong('Discord')} ${editorBase(repositoryUrl, draft)}\n\`\`\`json\n${jsonInCodeBlock(draft.file)}\`\`\`\n${WORDS.steps}`.slice(
          0,
          DISCORD_DESCRIPTION_MAX,
        );
  return {
    content: introOf(event),
    // A post's text is the provider's: it must never ping the channel (@everyone, a role, a user).
    allowed_mentions: { parse: [] },
    embeds: [
      {
        title: `${titleOf(event)}, draft ${event.id}`.slice(0, 256),
        url: event.sourceUrl,
        description,
        timestamp: event.announcedAt,
      },
    ],
  };
}

const quoted = (text: string) =>
  text
    .split(/\r\n?|\n/)
    .map((line) => `> ${line}`)
    .join('\n');

function slackMessage(draft: ReviewDraft, repositoryUrl: string, confirmUrl: string | undefined) {
  const { event } = draft;
  const link = reviewLink(repositoryUrl, draft);
  const posted = Math.floor(Date.parse(event.announcedAt) / 1000);
  const action =
    link.length <= SLACK_BUTTON_URL_MAX
      ? [
          {
            type: 'actions',
            elements: [{ type: 'button', text: { type: 'plain_text', text: WORDS.open }, url: link }],
          },
        ]
      : [
          {
            type: 'section',
            text: {
              type: 'mrkdwn',
              text: `${WORDS.tooLong('Slack')} <${slackUrl(editorBase(repositoryUrl, draft))}|${WORDS.open}>\n\`\`\`${slackText(jsonInCodeBlock(draft.file))}\`\`\``.slice(
                0,
                SLACK_TEXT_MAX,
              ),
              verbatim: true,
            },
          },
        ];
  return {
    text: introOf(event),
    blocks: [
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: `*<${slackUrl(event.sourceUrl)}|${slackText(`${titleOf(event)}, draft ${event.id}`)}>*\n${quoted(slackText(event.summary))}`,
          verbatim: true,
        },
      },
      {
        type: 'section',
        fields: fieldsOf(draft).map(([name, value]) => ({ type: 'mrkdwn', text: `*${name}*\n${slackText(value)}` })),
      },
      ...(confirmUrl === undefined
        ? []
        : [
            {
              type: 'actions',
              elements: [
                {
                  type: 'button',
                  text: { type: 'plain_text', text: WORDS.confirm },
                  url: confirmUrl,
                  style: 'primary',
                },
              ],
            },
            { type: 'context', elements: [{ type: 'mrkdwn', text: slackText(WORDS.confirmNote) }] },
          ]),
      ...action,
      {
        type: 'context',
        elements: [
          {
            type: 'mrkdwn',
            text: `Posted <!date^${posted}^{date_short_pretty} {time}|${event.announcedAt}>. ${slackText(WORDS.steps)}`,
          },
        ],
      },
    ],
  };
}
