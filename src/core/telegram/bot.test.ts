import { describe, expect, it } from 'vitest';
import type { ProviderStatus } from '../schemas.ts';
import { makeEvent, NOW } from '../test-events.ts';
import {
  escapeHtml,
  TELEGRAM_TEXT_MAX,
  type TelegramUpdate,
  TelegramUpdateSchema,
  TelegramWebhookAnswerSchema,
  sendMessageBody,
  telegramEventText,
  telegramReplyText,
  telegramRequest,
  telegramStatusText,
  withinLimit,
} from './bot.ts';

/**
 * The Telegram bot's pure half: commands read from an Update as the Bot API documents one (a message in a private
 * chat or a group, a channel's post), and the texts in HTML parse mode (the Bot API's "Formatting options": only
 * `<`, `>`, `&` and, in an attribute, `"` escaped; a message at most 4096 characters). Expectations by hand.
 */

const BASE = 'https://board.example';
const message = (text: string, extra: Record<string, unknown> = {}): TelegramUpdate =>
  TelegramUpdateSchema.parse({
    update_id: 1,
    message: {
      message_id: 7,
      date: 0,
      chat: { id: 42, type: 'private' },
      from: { id: 5, is_bot: false, first_name: 'A' },
      text,
      ...extra,
    },
  });

describe('telegramRequest: the command an update carries', () => {
  it.each([
    ['/start', { name: 'start' }],
    ['/help', { name: 'start' }],
    ['/status', { name: 'status' }],
    ['/unsubscribe', { name: 'unsubscribe' }],
    ['/subscribe provider_a', { name: 'subscribe', providers: ['provider_a'], kinds: ['reset'] }],
    [
      '/subscribe provider_c, provider_a tease reset',
      { name: 'subscribe', providers: ['provider_a', 'provider_c'], kinds: ['reset', 'tease'] },
    ],
    ['/subscribe all', { name: 'subscribe', providers: ['provider_a', 'provider_b', 'provider_c'], kinds: ['reset'] }],
    ['/subscribe PROVIDER_B Boost', { name: 'subscribe', providers: ['provider_b'], kinds: ['boost'] }],
    ['/subscribe', { name: 'subscribe_usage' }],
    ['/subscribe reset', { name: 'subscribe_usage' }],
    ['/subscribe provider_a nonsense', { name: 'subscribe_usage' }],
  ])('%s', (text, command) => {
    expect(telegramRequest(message(text))).toEqual({ chatId: 42, locale: 'en', command });
  });

  it('ignores plain text, unknown commands and updates without a message', () => {
    expect(telegramRequest(message('hello /status'))).toBeNull();
    expect(telegramRequest(message('/weather'))).toBeNull();
    expect(telegramRequest(TelegramUpdateSchema.parse({ update_id: 3, edited_message: {} }))).toBeNull();
    expect(telegramRequest(message('', { text: undefined }))).toBeNull();
  });

  it('reads a group’s /command@bot, and leaves a command addressed to another bot', () => {
    const group = (text: string) => message(text, { chat: { id: -100123, type: 'supergroup' } });
    expect(telegramRequest(group('/status@DeparturesBot'), 'departuresbot')).toEqual({
      chatId: -100123,
      locale: 'en',
      command: { name: 'status' },
    });
    expect(telegramRequest(group('/status@OtherBot'), 'DeparturesBot')).toBeNull();
  });

  it('reads a channel’s post, which has no sender: English', () => {
    const update = TelegramUpdateSchema.parse({
      update_id: 2,
      channel_post: {
        message_id: 1,
        date: 0,
        chat: { id: -1009, type: 'channel', title: 'News' },
        text: '/subscribe provider_b',
      },
    });
    expect(telegramRequest(update)).toEqual({
      chatId: -1009,
      locale: 'en',
      command: { name: 'subscribe', providers: ['provider_b'], kinds: ['reset'] },
    });
  });

  it('answers in Chinese for a zh language code, else English', () => {
    for (const [code, locale] of [
      ['zh-hans', 'zh'],
      ['zh', 'zh'],
      ['ZH-TW', 'zh'],
      ['en', 'en'],
      ['it', 'en'],
    ])
      expect(telegramRequest(message('/start', { from: { id: 1, language_code: code } }))?.locale).toBe(locale);
  });

  it('refuses bodies that are not an Update', () => {
    for (const body of [{}, { update_id: 'x' }, { update_id: 1.5 }, { update_id: 1, message: { text: '/start' } }])
      expect(TelegramUpdateSchema.safeParse(body).success).toBe(false);
  });
});

describe('the texts, in HTML parse mode', () => {
  it('escapes what HTML parse mode reads as markup', () => {
    expect(escapeHtml('a < b && c > "d"')).toBe('a &lt; b &amp;&amp; c &gt; &quot;d&quot;');
  });

  it('an event: the title in bold, the body escaped, the anchor on the board and the original post', () => {
    const event = makeEvent({
      id: 'e-tg',
      summary: 'Limits <reset> for Pro & Team.',
      sourceUrl: 'https://posts.example/1?a=1&b=2',
    });
    expect(telegramEventText(event, 'announced', 'en', BASE)).toBe(
      '<b>Provider A: Reset</b>\nLimits &lt;reset&gt; for Pro &amp; Team.\n\n' +
        '<a href="https://board.example/provider_a#event-e-tg">On the board</a> · <a href="https://posts.example/1?a=1&amp;b=2">Original post</a>',
    );
    expect(telegramEventText(event, 'announced', 'zh', BASE)).toBe(
      '<b>供应商 A：重置</b>\nLimits &lt;reset&gt; for Pro &amp; Team.\n\n' +
        '<a href="https://board.example/zh/provider_a#event-e-tg">在看板上查看</a> · <a href="https://posts.example/1?a=1&amp;b=2">原帖</a>',
    );
  });

  it('keeps a message within 4096 characters by whole lines, never cutting a tag', () => {
    const line = `<b>${'x'.repeat(993)}</b>`; // 1000 characters
    expect(withinLimit([line, line, line, line])).toHaveLength(4003);
    const cut = withinLimit([line, line, line, line, line]);
    expect(cut).toBe(`${line}\n${line}\n${line}\n${line}\n…`);
    expect(cut.length).toBeLessThanOrEqual(TELEGRAM_TEXT_MAX);
    expect(withinLimit(['x'.repeat(5000)])).toBe('…');
  });

  it('/status: each provider’s status word and its estimate, and a link to the board', () => {
    const row = (provider: ProviderStatus['provider'], status: ProviderStatus['status'], nextEstimate: string | null) =>
      ({
        provider,
        status,
        nextEstimate,
        daysSince: null,
        lastReset: null,
        latestSignal: null,
      }) as unknown as ProviderStatus;
    const text = telegramStatusText(
      [row('provider_a', 'waiting', '2026-06-17T12:00:00.000Z'), row('provider_b', 'no_data', null)],
      NOW,
      'en',
      BASE,
    );
    expect(text).toBe(
      '<b>Provider A</b>: Waiting · Cadence estimate: 2026-06-17 12:00 UTC (in 2 days)\n' +
        '<b>Provider B</b>: No data · Cadence estimate: not enough history\n\n' +
        '<a href="https://board.example/">On the board</a>',
    );
  });

  it('the replies, in each language, with the command’s usage', () => {
    expect(
      telegramReplyText(
        { kind: 'subscribed', providers: ['provider_a', 'provider_c'], kinds: ['reset', 'tease'] },
        'en',
      ),
    ).toBe('Subscribed: Provider A, Provider C. Kinds: Reset, Tease. Send /unsubscribe to stop.');
    expect(telegramReplyText({ kind: 'subscribed', providers: ['provider_b'], kinds: ['reset'] }, 'zh')).toBe(
      '已订阅：供应商 B。类型：重置。发送 /unsubscribe 即可停止。',
    );
    expect(telegramReplyText({ kind: 'usage' }, 'en')).toBe(
      'Commands: /subscribe &lt;providers&gt; [kinds] (providers: provider_a, provider_b, provider_c or all; kinds: reset, banked, boost, promo, tease; default reset), /status (the board now), /unsubscribe (stop).',
    );
    expect(telegramReplyText({ kind: 'start' }, 'zh')).toMatch(/^本机器人.*\n\n命令：\/subscribe &lt;供应商&gt;/s);
  });

  it('a reply is a sendMessage call the webhook answer may carry', () => {
    expect(TelegramWebhookAnswerSchema.safeParse({ method: 'sendMessage', ...sendMessageBody(42, 'hi') }).success).toBe(
      true,
    );
    expect(sendMessageBody(-100, 'x')).toEqual({
      chat_id: -100,
      text: 'x',
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
    });
  });
});
