import { describe, expect, it } from 'vitest';
import {
  DiscordExecuteWebhookSchema,
  isSafeMrkdwn,
  SlackIncomingWebhookSchema,
} from '../../../tests/support/chat-shapes.ts';
import { discordMarkupIn, discordShown, HOSTILE_POSTS } from '../../../tests/support/discord-markdown.ts';
import type { Event } from '../schemas.ts';
import { makeEvent } from '../test-events.ts';
import { chatMessage } from './message.ts';

/**
 * The Discord and Slack messages (decisions.md, "Chat webhooks"): every expected body below is written by hand
 * from the decision and the platforms' documentation, and each is held to the platforms' documented shapes
 * (tests/support/chat-shapes.ts, written from their docs).
 */

const BASE = 'https://board.example';
const reset = makeEvent({
  id: 'a-2026-06-14-reset',
  provider: 'provider_a',
  kind: 'reset',
  announcedAt: '2026-06-14T09:30:00Z',
  effectiveAt: null,
  sourceUrl: 'https://posts.provider-a.example/123',
  summary: 'Usage limits have been reset for everyone.',
});
const scheduled = makeEvent({
  id: 'b-2026-06-14-reset',
  provider: 'provider_b',
  kind: 'reset',
  announcedAt: '2026-06-14T09:30:00Z',
  effectiveAt: '2026-06-15T00:00:00Z',
  sourceUrl: 'https://posts.provider-b.example/456',
  summary: 'Limits reset at midnight UTC.',
});

describe('Discord: content and one embed (execute webhook)', () => {
  it('a reset in English', () => {
    const message = chatMessage('discord', reset, 'announced', 'en', BASE);
    expect(message).toStrictEqual({
      content: 'Provider A: Reset',
      allowed_mentions: { parse: [] },
      embeds: [
        {
          title: 'Provider A: Reset',
          url: 'https://board.example/provider_a#event-a-2026-06-14-reset',
          description:
            'Usage limits have been reset for everyone.\n\n[Original post](https://posts.provider-a.example/123)',
          timestamp: '2026-06-14T09:30:00.000Z',
        },
      ],
    });
    expect(DiscordExecuteWebhookSchema.safeParse(message).success).toBe(true);
  });

  it('a reset in Chinese links the Chinese page', () => {
    const message = chatMessage('discord', reset, 'announced', 'zh', BASE);
    expect(message).toStrictEqual({
      content: '供应商 A：重置',
      allowed_mentions: { parse: [] },
      embeds: [
        {
          title: '供应商 A：重置',
          url: 'https://board.example/zh/provider_a#event-a-2026-06-14-reset',
          description: 'Usage limits have been reset for everyone.\n\n[原帖](https://posts.provider-a.example/123)',
          timestamp: '2026-06-14T09:30:00.000Z',
        },
      ],
    });
  });

  it('a scheduled reset when announced, and when it takes effect (its own moment)', () => {
    const announced = chatMessage('discord', scheduled, 'announced', 'en', BASE);
    const effective = chatMessage('discord', scheduled, 'effective', 'en', BASE);
    expect(announced).toMatchObject({
      content: 'Provider B: Reset scheduled',
      embeds: [
        {
          title: 'Provider B: Reset scheduled',
          description: expect.stringMatching(/^Scheduled for 2026-06-15 00:00 UTC\. Limits reset at midnight UTC\./),
          timestamp: '2026-06-14T09:30:00.000Z',
        },
      ],
    });
    expect(effective).toMatchObject({
      content: 'Provider B: Reset now',
      embeds: [
        {
          description: expect.stringMatching(/^In effect since 2026-06-15 00:00 UTC\. /),
          timestamp: '2026-06-15T00:00:00.000Z',
        },
      ],
    });
  });

  it.each(HOSTILE_POSTS)('a summary of %j is text: the same links and marks as a plain summary’s', (summary) => {
    const descriptionOf = (event: Event, locale: 'en' | 'zh') =>
      (chatMessage('discord', event, 'effective', locale, BASE) as { embeds: { description: string }[] }).embeds[0]!
        .description;
    for (const locale of ['en', 'zh'] as const) {
      const description = descriptionOf({ ...scheduled, summary }, locale);
      expect(discordMarkupIn(description)).toEqual(discordMarkupIn(descriptionOf(scheduled, locale)));
      expect(discordMarkupIn(description)).toEqual(['link']);
      expect(discordShown(description)).toContain(summary.replace(/\r\n?/g, '\n'));
    }
  });

  it('a source URL with parentheses keeps the masked link whole', () => {
    const event = { ...reset, sourceUrl: 'https://posts.provider-a.example/a_(b)' };
    const [embed] = (chatMessage('discord', event, 'announced', 'en', BASE) as { embeds: { description: string }[] })
      .embeds;
    expect(embed!.description.endsWith('[Original post](https://posts.provider-a.example/a_%28b%29)')).toBe(true);
  });
});

describe('Slack: text and blocks (incoming webhook)', () => {
  it('a reset in English', () => {
    const message = chatMessage('slack', reset, 'announced', 'en', BASE);
    // 2026-06-14T09:30:00Z is 1781429400 seconds after the epoch.
    expect(message).toStrictEqual({
      text: 'Provider A: Reset',
      blocks: [
        {
          type: 'section',
          text: {
            type: 'mrkdwn',
            text: '*<https://board.example/provider_a#event-a-2026-06-14-reset|Provider A: Reset>*\nUsage limits have been reset for everyone.',
          },
        },
        {
          type: 'context',
          elements: [
            {
              type: 'mrkdwn',
              text: 'Announced <!date^1781429400^{date_short_pretty} {time}|2026-06-14 09:30 UTC> · <https://posts.provider-a.example/123|Original post>',
            },
          ],
        },
      ],
    });
    expect(SlackIncomingWebhookSchema.safeParse(message).success).toBe(true);
  });

  it('a reset taking effect, in Chinese', () => {
    const message = chatMessage('slack', scheduled, 'effective', 'zh', BASE);
    // 2026-06-15T00:00:00Z is 1781481600 seconds after the epoch.
    expect(message).toStrictEqual({
      text: '供应商 B：重置已生效',
      blocks: [
        {
          type: 'section',
          text: {
            type: 'mrkdwn',
            text: '*<https://board.example/zh/provider_b#event-b-2026-06-14-reset|供应商 B：重置已生效>*\n自 2026年6月15日 00:00（UTC）起生效。Limits reset at midnight UTC.',
          },
        },
        {
          type: 'context',
          elements: [
            {
              type: 'mrkdwn',
              text: '生效于 <!date^1781481600^{date_short_pretty} {time}|2026年6月15日 00:00（UTC）> · <https://posts.provider-b.example/456|原帖>',
            },
          ],
        },
      ],
    });
    expect(SlackIncomingWebhookSchema.safeParse(message).success).toBe(true);
  });

  it('escapes Slack’s control characters in a summary, and a link’s URL', () => {
    const event = {
      ...reset,
      summary: 'Limits <reset> & more <!channel> <https://evil.example|click>',
      sourceUrl: 'https://posts.provider-a.example/x?a=1|2>',
    };
    const message = chatMessage('slack', event, 'announced', 'en', BASE) as {
      blocks: { text?: { text: string }; elements?: { text: string }[] }[];
    };
    const section = message.blocks[0]!.text!.text;
    expect(section).toContain('Limits &lt;reset&gt; &amp; more &lt;!channel&gt; &lt;https://evil.example|click&gt;');
    expect(message.blocks[1]!.elements![0]!.text).toContain(
      '<https://posts.provider-a.example/x?a=1%7C2%3E|Original post>',
    );
    expect(isSafeMrkdwn(section)).toBe(true);
    expect(SlackIncomingWebhookSchema.safeParse(message).success).toBe(true);
  });
});

describe('within both platforms’ limits at the largest event the schema allows', () => {
  it.each(['en', 'zh'] as const)('%s', (locale) => {
    const longest = {
      ...scheduled,
      id: `c-${'x'.repeat(60)}`,
      provider: 'provider_c' as const,
      kind: 'banked' as const,
      summary: '&<>'.repeat(93).padEnd(280, '<'),
      sourceUrl: `https://posts.provider-c.example/${'p'.repeat(400)}`,
    };
    for (const transition of ['announced', 'effective'] as const) {
      const discord = DiscordExecuteWebhookSchema.safeParse(chatMessage('discord', longest, transition, locale, BASE));
      const slack = SlackIncomingWebhookSchema.safeParse(chatMessage('slack', longest, transition, locale, BASE));
      expect(discord.error?.issues ?? []).toEqual([]);
      expect(slack.error?.issues ?? []).toEqual([]);
    }
  });
});

describe('the documented shapes refuse what the platforms refuse (so the checks above can fail)', () => {
  const embed = { title: 'T', url: 'https://board.example/x', description: 'D', timestamp: '2026-06-14T09:30:00Z' };
  it.each([
    ['content over 2000 characters', { content: 'x'.repeat(2001) }],
    ['eleven embeds', { embeds: Array(11).fill(embed) }],
    ['a title over 256 characters', { embeds: [{ ...embed, title: 'x'.repeat(257) }] }],
    ['a description over 4096 characters', { embeds: [{ ...embed, description: 'x'.repeat(4097) }] }],
    ['a timestamp that is not ISO 8601', { embeds: [{ ...embed, timestamp: 'June 14, 2026' }] }],
    [
      'more than 6000 characters in all embeds',
      { embeds: [1, 2].map(() => ({ ...embed, description: 'x'.repeat(3001) })) },
    ],
    ['neither content nor an embed', { allowed_mentions: { parse: [] } }],
  ])('Discord: %s', (_name, body) => {
    expect(DiscordExecuteWebhookSchema.safeParse(body).success).toBe(false);
  });

  const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });
  it.each([
    ['no text', { blocks: [section('a')] }],
    ['a section text over 3000 characters', { text: 't', blocks: [section('x'.repeat(3001))] }],
    ['a bare < in mrkdwn', { text: 't', blocks: [section('a < b')] }],
    ['a bare & in the text', { text: 'a & b' }],
    ['an @-channel control sequence', { text: 't', blocks: [section('<!channel>')] }],
    [
      'a context block of eleven elements',
      { text: 't', blocks: [{ type: 'context', elements: Array(11).fill({ type: 'mrkdwn', text: 'a' }) }] },
    ],
  ])('Slack: %s', (_name, body) => {
    expect(SlackIncomingWebhookSchema.safeParse(body).success).toBe(false);
  });
});
