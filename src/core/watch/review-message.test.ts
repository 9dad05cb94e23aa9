import { describe, expect, it } from 'vitest';
import {
  discordMarkupIn,
  discordNodes,
  discordShown,
  HOSTILE_POSTS,
  startsBlock,
} from '../../../tests/support/discord-markdown.ts';
import { buildDraftEvent, serializeEventFile } from '../content/new-event.ts';
import { validateEventFiles } from '../content/validate-event-files.ts';
import { chatPlatformOf } from '../outbound/chat-platform.ts';
import { discordUrl } from '../chat/discord-text.ts';
import {
  DISCORD_DESCRIPTION_MAX,
  type ReviewDraft,
  reviewLink,
  reviewMessage,
  SLACK_BUTTON_URL_MAX,
} from './review-message.ts';

const REPOSITORY = 'https://github.com/example-owner/departures-board';
const RUN_AT = new Date('2026-11-21T12:00:00.000Z');

function draftOf(summary: string, id = '1900000000000000001'): ReviewDraft {
  const built = buildDraftEvent({
    provider: 'provider_a',
    kind: 'reset',
    sourceUrl: `https://posts.provider-a.example/@provider_a_eng/${id}`,
    sourceAccount: 'provider_a_eng',
    summary,
    announcedAt: '2026-11-19T16:05:00Z',
  });
  if (!built.ok) throw new Error(JSON.stringify(built.problems));
  return { event: built.event, path: `provider_a/${built.event.id}.json`, file: serializeEventFile(built.event) };
}

/** Every URL in a text (Markdown links and bare ones), the way a reader's client finds them. */
const urlsIn = (text: string) => [...text.matchAll(/https?:\/\/[^\s)>|]+/g)].map((match) => match[0]);

/** The file a one-click link opens the editor with, read back with the WHATWG URL parser. */
function openedFile(link: string) {
  const url = new URL(link);
  expect(`${url.origin}${url.pathname}`).toBe(`${REPOSITORY}/new/main`);
  return { filename: url.searchParams.get('filename'), value: url.searchParams.get('value') };
}

describe('the one-click review link', () => {
  it('opens the repository’s editor on content/events/<provider>/<id>.json with the file, which validates as it is', () => {
    const draft = draftOf('We have reset weekly usage limits for everyone & every plan: 100% “fresh”.\nEnjoy #1!');
    const { filename, value } = openedFile(reviewLink(REPOSITORY, draft));
    expect(filename).toBe('content/events/provider_a/1900000000000000001.json');
    expect(value).toBe(draft.file);
    const path = filename!.slice('content/events/'.length);
    expect(validateEventFiles([{ path, text: value! }], RUN_AT).problems).toEqual([]);
    // Marking it verified is the only edit a reviewer makes.
    const verified = value!.replace('"verified": false', '"verified": true');
    expect(verified).not.toBe(value);
    const checked = validateEventFiles([{ path, text: verified }], RUN_AT);
    expect(checked.problems).toEqual([]);
    expect(checked.events[0]!.verified).toBe(true);
  });
});

describe('the review message', () => {
  const draft = draftOf('Limits are <b>reset</b> & back to full for @everyone.');

  it('on Discord: content and one embed with the post, the fields, the link, and no mention that pings', () => {
    const message = reviewMessage('discord', draft, REPOSITORY) as {
      content: string;
      allowed_mentions: { parse: string[] };
      embeds: { title: string; url: string; description: string; timestamp: string }[];
    };
    expect(message.content).toBe('New draft to review: Provider A: Reset (provider_a_eng)');
    expect(message.allowed_mentions).toEqual({ parse: [] });
    expect(message.embeds).toHaveLength(1);
    const [embed] = message.embeds;
    expect(embed!.title).toBe('Provider A: Reset, draft 1900000000000000001');
    expect(embed!.url).toBe('https://posts.provider-a.example/@provider_a_eng/1900000000000000001');
    expect(embed!.timestamp).toBe('2026-11-19T16:05:00.000Z');
    // Escaped Markdown (src/core/chat/discord-text.ts): what a reader sees is the post and the fields as they are.
    const shown = discordShown(embed!.description);
    expect(shown).toContain('Limits are <b>reset</b> & back to full for @everyone.');
    expect(discordMarkupIn(embed!.description)).not.toContain('everyone');
    for (const field of ['kind reset', 'scope global', 'announcedAt 2026-11-19T16:05:00.000Z']) {
      expect(shown).toContain(field);
    }
    const links = urlsIn(embed!.description).filter((url) => url.startsWith(`${REPOSITORY}/new/`));
    expect(links).toHaveLength(1);
    expect(openedFile(links[0]!).value).toBe(draft.file);
    expect(embed!.description.length).toBeLessThanOrEqual(DISCORD_DESCRIPTION_MAX);
  });

  it('on Slack: text and blocks with the post, the fields, a button with the link, and mrkdwn escaped', () => {
    const message = reviewMessage('slack', draft, REPOSITORY) as {
      text: string;
      blocks: {
        type: string;
        text?: { text: string };
        fields?: { text: string }[];
        elements?: { url?: string; text: unknown }[];
      }[];
    };
    expect(message.text).toBe('New draft to review: Provider A: Reset (provider_a_eng)');
    expect(message.blocks.map((block) => block.type)).toEqual(['section', 'section', 'actions', 'context']);
    expect(message.blocks[0]!.text!.text).toBe(
      '*<https://posts.provider-a.example/@provider_a_eng/1900000000000000001|Provider A: Reset, draft 1900000000000000001>*\n> Limits are &lt;b&gt;reset&lt;/b&gt; &amp; back to full for @everyone.',
    );
    expect(message.blocks[1]!.fields!.map((field) => field.text)).toContain('*kind*\nreset');
    const button = message.blocks[2]!.elements![0]!;
    expect(button.url!.length).toBeLessThanOrEqual(SLACK_BUTTON_URL_MAX);
    expect(openedFile(button.url!).value).toBe(draft.file);
  });

  it('gives the editor and the file to paste when a link would be longer than the platform takes', () => {
    // 280 Chinese characters: each is nine characters once percent-encoded.
    const long = draftOf('额'.repeat(280), '1900000000000000009');
    expect(reviewLink(REPOSITORY, long).length).toBeGreaterThan(SLACK_BUTTON_URL_MAX);
    const slack = reviewMessage('slack', long, REPOSITORY) as { blocks: { type: string; text?: { text: string } }[] };
    expect(slack.blocks.map((block) => block.type)).toEqual(['section', 'section', 'section', 'context']);
    const paste = slack.blocks[2]!.text!.text;
    expect(paste.length).toBeLessThanOrEqual(3000);
    expect(paste).toContain(`${REPOSITORY}/new/main?filename=content/events/provider_a/1900000000000000009.json`);
    expect(paste).toContain(long.file);
    const discord = reviewMessage('discord', long, REPOSITORY) as { embeds: { description: string }[] };
    expect(discord.embeds[0]!.description.length).toBeLessThanOrEqual(DISCORD_DESCRIPTION_MAX);
  });

  it('carries the review page’s confirm link beside the editor link when one is given, and only then', () => {
    const confirm = 'https://board.example/review/1900000000000000001?t=1782043200.abc_DEF-123';
    const discord = reviewMessage('discord', draft, REPOSITORY, confirm) as { embeds: { description: string }[] };
    const description = discord.embeds[0]!.description;
    const links = urlsIn(description);
    expect(links).toContain(confirm);
    expect(links.filter((url) => url.startsWith(`${REPOSITORY}/new/`))).toHaveLength(1);
    expect(discordShown(description)).toContain('Confirm or reject on the review page');
    const slack = reviewMessage('slack', draft, REPOSITORY, confirm) as {
      blocks: { type: string; elements?: { url?: string }[] }[];
    };
    const urls = slack.blocks.flatMap((block) => (block.elements ?? []).map((element) => element.url));
    expect(urls).toContain(confirm);
    expect(urls.filter((url) => url?.startsWith(`${REPOSITORY}/new/`))).toHaveLength(1);
    for (const platform of ['discord', 'slack'] as const)
      expect(JSON.stringify(reviewMessage(platform, draft, REPOSITORY))).not.toContain('/review/');
  });
});

describe('the chat platform of a webhook address', () => {
  it.each([
    ['https://discord.com/api/webhooks/123/abc-DEF', 'discord'],
    ['https://discordapp.com/api/webhooks/123/abc', 'discord'],
    ['https://hooks.slack.com/services/T000/B000/XXXX', 'slack'],
    ['https://discord.com/api/channels/123', null],
    ['https://hooks.slack.com/workflows/T000/A000/1/x', null],
    ['https://example.com/api/webhooks/123/abc', null],
    ['https://discord.com.evil.example/api/webhooks/1/a', null],
    // The tests' receiver on loopback (the policy lets it through only with the loopback switch on).
    ['http://127.0.0.1:8787/api/webhooks/1/token', 'discord'],
    ['http://localhost:8787/services/T/B/X', 'slack'],
    ['http://127.0.0.1:8787/hook', null],
  ])('%s → %s', (address, platform) => {
    expect(chatPlatformOf(address)).toBe(platform);
  });
});

describe('a post’s own Markdown, mentions and links stay text in the review message', () => {
  type DiscordBody = { allowed_mentions: { parse: string[] }; embeds: { description: string }[] };
  type SlackBody = { blocks: { type: string; text?: { text: string; verbatim?: boolean } }[] };
  const discordOf = (draft: ReviewDraft) => reviewMessage('discord', draft, REPOSITORY) as DiscordBody;
  /** The links a Discord reader can follow, with their targets. */
  const followable = (description: string) =>
    discordNodes(description)
      .filter((node) => ['link', 'url', 'autolink'].includes(node.type))
      .map((node) => `${node.type} ${String(node['target'])}`);
  const plain = discordOf(draftOf('Limits reset.')).embeds[0]!.description;

  it.each(HOSTILE_POSTS)('on Discord, %j: the same links and marks as a plain post’s, and the post as text', (post) => {
    const draft = draftOf(post);
    const message = discordOf(draft);
    expect(message.allowed_mentions).toEqual({ parse: [] });
    const { description } = message.embeds[0]!;
    // Ours only: the quote, the field names in bold, <original post> and the editor's link.
    expect(discordMarkupIn(description)).toEqual(discordMarkupIn(plain));
    expect(followable(description)).toEqual([
      `autolink ${draft.event.sourceUrl}`,
      `link ${discordUrl(reviewLink(REPOSITORY, draft))}`,
    ]);
    // The editor opens with the file as it is: `(` and `)` percent-encoded are the same query value.
    expect(openedFile(discordUrl(reviewLink(REPOSITORY, draft))).value).toBe(draft.file);
    for (const line of draft.event.summary.split(/\r\n?|\n/)) expect(discordShown(description)).toContain(line);
    expect(description.split('\n').filter((line) => startsBlock(line) && !line.startsWith('> '))).toEqual([]);
  });

  it('on Discord, a file to paste stays in its code block whatever its summary holds', () => {
    // Emoji are 12 characters each once percent-encoded: the link is longer than Discord takes.
    const draft = draftOf(
      `${'😀'.repeat(230)} \`\`\`\n[phish](https://evil.example/x) @everyone`,
      '1900000000000000011',
    );
    const { description } = discordOf(draft).embeds[0]!;
    expect(description).toContain('paste the file below');
    expect(description.length).toBeLessThanOrEqual(DISCORD_DESCRIPTION_MAX);
    const types = discordMarkupIn(description);
    expect(types.filter((type) => type === 'codeBlock')).toHaveLength(1);
    expect(followable(description)).toEqual([`autolink ${draft.event.sourceUrl}`, expect.stringMatching(/^url /)]);
    expect(types).not.toContain('everyone');
    const code = discordNodes(description).find((node) => node.type === 'codeBlock')!;
    expect(JSON.parse(String(code['content']))).toEqual(JSON.parse(draft.file));
  });

  it.each(HOSTILE_POSTS)('on Slack, %j: &, < and > escaped, no link of its own, and its section verbatim', (post) => {
    const draft = draftOf(post);
    const section = (reviewMessage('slack', draft, REPOSITORY) as SlackBody).blocks[0]!.text!;
    expect(section.verbatim).toBe(true);
    const [title, ...quote] = section.text.split('\n');
    expect(title).toMatch(/^\*<https:\/\/posts\.provider-a\.example\/@provider_a_eng\/\d+\|[^<>|]+>\*$/);
    expect(quote.every((line) => line.startsWith('> '))).toBe(true);
    const text = quote.map((line) => line.slice(2)).join('\n');
    expect(text).not.toMatch(/[<>\r]|&(?!amp;|lt;|gt;)/);
    expect(text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&')).toBe(
      draft.event.summary.replace(/\r\n?/g, '\n'),
    );
  });

  it('on Slack, a file to paste stays in its code block, escaped', () => {
    const draft = draftOf(`${'😀'.repeat(230)} \`\`\`<https://evil.example|phish> & @everyone`, '1900000000000000012');
    const paste = (reviewMessage('slack', draft, REPOSITORY) as SlackBody).blocks[2]!.text!;
    expect(paste.verbatim).toBe(true);
    const code = paste.text.slice(paste.text.indexOf('```') + 3, paste.text.lastIndexOf('```'));
    expect(code).not.toMatch(/[<>`]/);
    expect(JSON.parse(code.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&'))).toEqual(
      JSON.parse(draft.file),
    );
  });
});
