import { describe, expect, it } from 'vitest';
import { DiscordExecuteWebhookSchema, SlackIncomingWebhookSchema } from '../../../tests/support/chat-shapes.ts';
import { connectedMessage } from './connected-message.ts';

/**
 * The message a Discord or Slack channel is sent when its webhook is connected (docs/delivery.md, "Writing a
 * subscription"): every expected body is written by hand, and each is held to the platforms' documented shapes
 * (tests/support/chat-shapes.ts, written from their docs).
 */

const BASE = 'https://board.example';

describe('the message that says a channel is connected (sent once, when its webhook is connected)', () => {
  const NOW = new Date('2026-06-14T09:30:00Z');
  const choices = { providers: ['provider_c', 'provider_a'], kinds: ['boost', 'reset'] } as const;

  it('Discord, in English: what will be posted, the choices in their order, and how to stop', () => {
    const message = connectedMessage('discord', choices, 'en', `${BASE}/`, NOW);
    expect(message).toStrictEqual({
      content: 'Connected to Departures Board',
      allowed_mentions: { parse: [] },
      embeds: [
        {
          title: 'Connected to Departures Board',
          url: 'https://board.example/#notify',
          description:
            'Each new announcement of Provider A, Provider C will be posted here, in English, with a link to it on the board and to the original post. Kinds: Reset, Limit boost.\n\nTo stop: “Stop posting” with this webhook’s URL under “Notify me” on [the board](https://board.example/#notify), or delete the webhook.',
          timestamp: '2026-06-14T09:30:00.000Z',
        },
      ],
    });
    expect(DiscordExecuteWebhookSchema.safeParse(message).error?.issues ?? []).toEqual([]);
  });

  it('Discord, in Chinese: full-width punctuation, the Chinese board', () => {
    const message = connectedMessage('discord', { providers: ['provider_b'], kinds: ['reset'] }, 'zh', BASE, NOW);
    expect(message).toStrictEqual({
      content: '已连接到 Departures Board',
      allowed_mentions: { parse: [] },
      embeds: [
        {
          title: '已连接到 Departures Board',
          url: 'https://board.example/zh#notify',
          description:
            '供应商 B 的每条新公告都会用中文发到这里，并附上它在看板上的链接和原帖链接。公告类型：重置。\n\n如需停止：在[看板](https://board.example/zh#notify)的“通知我”中填入这个 Webhook 的地址，按“停止发送”；或者删除该 Webhook。',
          timestamp: '2026-06-14T09:30:00.000Z',
        },
      ],
    });
    expect(DiscordExecuteWebhookSchema.safeParse(message).error?.issues ?? []).toEqual([]);
  });

  it('Slack, in English: the text, a section linking the board, the way to stop as context', () => {
    const message = connectedMessage('slack', choices, 'en', BASE, NOW);
    expect(message).toStrictEqual({
      text: 'Connected to Departures Board',
      blocks: [
        {
          type: 'section',
          text: {
            type: 'mrkdwn',
            text: '*<https://board.example/#notify|Connected to Departures Board>*\nEach new announcement of Provider A, Provider C will be posted here, in English, with a link to it on the board and to the original post. Kinds: Reset, Limit boost.',
          },
        },
        {
          type: 'context',
          elements: [
            {
              type: 'mrkdwn',
              text: 'To stop: “Stop posting” with this webhook’s URL under “Notify me” on <https://board.example/#notify|the board>, or delete the webhook.',
            },
          ],
        },
      ],
    });
    expect(SlackIncomingWebhookSchema.safeParse(message).error?.issues ?? []).toEqual([]);
  });

  it('Slack, in Chinese, every provider and kind', () => {
    const every = {
      providers: ['provider_a', 'provider_b', 'provider_c'],
      kinds: ['reset', 'banked', 'boost', 'promo', 'tease'],
    } as const;
    const message = connectedMessage('slack', every, 'zh', BASE, NOW);
    expect(message).toStrictEqual({
      text: '已连接到 Departures Board',
      blocks: [
        {
          type: 'section',
          text: {
            type: 'mrkdwn',
            text: '*<https://board.example/zh#notify|已连接到 Departures Board>*\n供应商 A、供应商 B、供应商 C 的每条新公告都会用中文发到这里，并附上它在看板上的链接和原帖链接。公告类型：重置、储备重置卡、额度提升、促销、预告。',
          },
        },
        {
          type: 'context',
          elements: [
            {
              type: 'mrkdwn',
              text: '如需停止：在<https://board.example/zh#notify|看板>的“通知我”中填入这个 Webhook 的地址，按“停止发送”；或者删除该 Webhook。',
            },
          ],
        },
      ],
    });
    expect(SlackIncomingWebhookSchema.safeParse(message).error?.issues ?? []).toEqual([]);
  });
});
