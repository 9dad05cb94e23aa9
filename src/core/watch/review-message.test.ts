import { describe, expect, it } from 'vitest';
import { buildDraftEvent, serializeEventFile } from '../content/new-event.ts';
import { validateEventFiles } from '../content/validate-event-files.ts';
import { chatPlatformOf } from '../outbound/chat-platform.ts';
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
    expect(embed!.description).toContain('> Limits are <b>reset</b> & back to full for @everyone.');
    for (const field of ['**kind** reset', '**scope** global', '**announcedAt** 2026-11-19T16:05:00.000Z']) {
      expect(embed!.description).toContain(field);
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
