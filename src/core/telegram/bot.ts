import { z } from 'zod';
import { lazySchema } from '../lazy-schema.ts';
import { rowAnswer, rowFactsFromApi, segmentsAsText } from '../board-answer.ts';
import { TRANSLATIONS } from '../i18n/index.ts';
import { localeOfTag } from '../languages.ts';
import type { Transition } from '../push/due.ts';
import { pushPayload } from '../push/payload.ts';
import type { Event, ProviderStatus } from '../schemas.ts';
import { localizedPath } from '../site.ts';
import { EVENT_KINDS, type EventKind, type Locale, PROVIDERS, type Provider } from '../vocabulary.ts';

/**
 * The Telegram bot (decisions.md, "More channels: Telegram, ntfy, signed webhooks"): the part of an Update the
 * service reads, its commands, and every text it sends, in HTML parse mode (the Bot API's "Formatting options":
 * `<`, `>` and `&` escaped, links as `<a href>`), within a message's 4096 characters. Pure: the words are the i18n
 * files' (`notifyChannels.telegram`), the clock and the base URL are handed in.
 */

/** A webhook's body: an update is a few KiB; a message's text is at most 4096 characters, 4 bytes each. */
export const TELEGRAM_UPDATE_MAX_BYTES = 32 * 1024;
/** The Bot API's limit on a message's text (sendMessage, `text`: 1-4096 characters after entities parsing). */
export const TELEGRAM_TEXT_MAX = 4096;

const ChatSchema = z.looseObject({
  id: z.number().int().describe('the chat’s id: the subscriber’s address'),
  type: z.string().describe('`private`, `group`, `supergroup` or `channel`'),
});
const MessageSchema = z.looseObject({
  chat: ChatSchema,
  from: z
    .looseObject({
      language_code: z.string().optional().describe('IETF tag of the sender’s language: `zh…` is Chinese'),
    })
    .optional(),
  text: z.string().optional().describe('a command, such as `/subscribe provider_a reset` or `/status@TheBot`'),
});

/** Telegram's Update, as far as the service reads it: a message in a private chat or a group, or a channel's post. */
export const TelegramUpdateSchema = z
  .looseObject({
    update_id: z.number().int(),
    message: MessageSchema.optional(),
    channel_post: MessageSchema.optional(),
  })
  .describe('A Telegram Bot API Update (other fields and update types are ignored)');
export type TelegramUpdate = z.infer<typeof TelegramUpdateSchema>;

export type TelegramCommand =
  | { name: 'start' }
  | { name: 'status' }
  | { name: 'unsubscribe' }
  | { name: 'subscribe'; providers: Provider[]; kinds: EventKind[] }
  /** `/subscribe` whose arguments are not providers and kinds: answered with how to write it. */
  | { name: 'subscribe_usage' };

export interface TelegramRequest {
  chatId: number;
  locale: Locale;
  command: TelegramCommand;
}

const COMMAND = /^\/([a-z_]+)(?:@([A-Za-z0-9_]+))?(?:\s+([\s\S]*))?$/;

/** `/subscribe`'s arguments: providers then kinds, separated by spaces or commas; `all` for every provider. */
function subscription(text: string): TelegramCommand {
  const words = text
    .toLowerCase()
    .split(/[\s,]+/)
    .filter((word) => word !== '');
  const providers = new Set<Provider>();
  const kinds = new Set<EventKind>();
  for (const word of words) {
    if (word === 'all') for (const provider of PROVIDERS) providers.add(provider);
    else if ((PROVIDERS as readonly string[]).includes(word)) providers.add(word as Provider);
    else if ((EVENT_KINDS as readonly string[]).includes(word)) kinds.add(word as EventKind);
    else return { name: 'subscribe_usage' };
  }
  if (providers.size === 0) return { name: 'subscribe_usage' };
  return {
    name: 'subscribe',
    providers: PROVIDERS.filter((provider) => providers.has(provider)),
    kinds: kinds.size === 0 ? ['reset'] : EVENT_KINDS.filter((kind) => kinds.has(kind)),
  };
}

/**
 * The command an update carries, for this bot (`botUsername`, when known: a command addressed to another bot in a
 * group is not ours), with the chat and the sender's language; `null` for anything else (other updates, plain text,
 * unknown commands), which the webhook takes and ignores.
 */
export function telegramRequest(update: TelegramUpdate, botUsername?: string): TelegramRequest | null {
  const message = update.message ?? update.channel_post;
  const match = COMMAND.exec(message?.text?.trim() ?? '');
  if (message === undefined || match === null) return null;
  const [, name, addressee, rest = ''] = match;
  if (addressee !== undefined && botUsername !== undefined && addressee.toLowerCase() !== botUsername.toLowerCase())
    return null;
  // Telegram's language_code is the user's app language, a BCP 47 tag (`pt-br`, `zh-hans`).
  const locale: Locale = localeOfTag(message.from?.language_code ?? '') ?? 'en';
  let command: TelegramCommand;
  if (name === 'start' || name === 'help') command = { name: 'start' };
  else if (name === 'status') command = { name: 'status' };
  else if (name === 'unsubscribe' || name === 'stop') command = { name: 'unsubscribe' };
  else if (name === 'subscribe') command = subscription(rest);
  else return null;
  return { chatId: message.chat.id, locale, command };
}

/** HTML parse mode's escapes: `&`, `<`, `>` (and `"` inside an attribute). */
export const escapeHtml = (text: string): string =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

const link = (href: string, text: string) => `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`;

/**
 * Lines joined by newlines, as many as fit in `max` characters: each line is whole HTML (its tags closed), so that
 * dropping the lines after the limit never leaves a tag open; the last kept is followed by `…` when some were left.
 */
export function withinLimit(lines: readonly string[], max = TELEGRAM_TEXT_MAX): string {
  let text = '';
  for (const [index, line] of lines.entries()) {
    const next = text === '' ? line : `${text}\n${line}`;
    if (next.length > max - (index < lines.length - 1 ? 2 : 0)) return text === '' ? '…' : `${text}\n…`;
    text = next;
  }
  return text;
}

/** The message for one (event, transition): the push notification's title and body, the event's anchor, the post. */
export function telegramEventText(event: Event, transition: Transition, locale: Locale, baseUrl: string): string {
  const { title, body } = pushPayload(event, transition, locale, baseUrl);
  const words = TRANSLATIONS[locale];
  const anchor = `${baseUrl.replace(/\/+$/, '')}${localizedPath(`/${event.provider}`, locale)}#event-${event.id}`;
  return withinLimit([
    `<b>${escapeHtml(title)}</b>`,
    escapeHtml(body),
    '',
    `${link(anchor, words.notifyChannels.telegram.onTheBoard)} · ${link(event.sourceUrl, words.chat.originalPost)}`,
  ]);
}

const fill = (template: string, values: Readonly<Record<string, string>>) =>
  template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);

/** The board as `/status` answers it: per provider its status word and the same answer the board's row gives. */
export function telegramStatusText(
  statuses: readonly ProviderStatus[],
  now: Date,
  locale: Locale,
  baseUrl: string,
): string {
  const words = TRANSLATIONS[locale];
  const time = (iso: string) => words.formats.minute(iso);
  const lines = statuses.map((row) => {
    const answer = rowAnswer(rowFactsFromApi(row, null, now.getTime()), now.getTime(), locale, words.boardAnswer);
    const parts = [answer.answer?.parts, answer.estimate.parts].filter((one) => one !== undefined);
    const said = parts.map((one) => escapeHtml(segmentsAsText(one, time))).join(' · ');
    return `<b>${escapeHtml(words.providers[row.provider])}</b>${escapeHtml(words.markdown.punctuation.afterTitle)}${escapeHtml(words.statuses[row.status])} · ${said}`;
  });
  return withinLimit([
    ...lines,
    '',
    link(`${baseUrl.replace(/\/+$/, '')}${localizedPath('/', locale)}`, words.notifyChannels.telegram.onTheBoard),
  ]);
}

/** The answer to a command other than `/status`, in the chat's language. */
export function telegramReplyText(
  reply:
    | { kind: 'start' | 'usage' | 'unsubscribed' }
    | { kind: 'subscribed'; providers: readonly Provider[]; kinds: readonly EventKind[] },
  locale: Locale,
): string {
  const words = TRANSLATIONS[locale];
  const text = words.notifyChannels.telegram.bot;
  if (reply.kind === 'subscribed')
    return escapeHtml(
      fill(text.subscribed, {
        providers: reply.providers.map((provider) => words.providers[provider]).join(text.listSeparator),
        kinds: reply.kinds.map((kind) => words.kinds[kind]).join(text.listSeparator),
      }),
    );
  if (reply.kind === 'unsubscribed') return escapeHtml(text.unsubscribed);
  const usage = escapeHtml(fill(text.usage, { providers: PROVIDERS.join(', '), kinds: EVENT_KINDS.join(', ') }));
  return reply.kind === 'usage' ? usage : `${escapeHtml(text.start)}\n\n${usage}`;
}

/** The webhook's answer: a command's reply as a Bot API call Telegram makes for the bot, or `{}` for the rest. */
export const TelegramWebhookAnswerSchema = lazySchema(() =>
  z.union([
    z.strictObject({
      method: z.literal('sendMessage'),
      chat_id: z.number().int(),
      text: z.string().max(TELEGRAM_TEXT_MAX),
      parse_mode: z.literal('HTML'),
      link_preview_options: z.strictObject({ is_disabled: z.literal(true) }),
    }),
    z.strictObject({}),
  ]),
);

/** A `sendMessage` request's body (Bot API), in HTML parse mode, without link previews. */
export const sendMessageBody = (chatId: number | string, text: string) => ({
  chat_id: chatId,
  text,
  parse_mode: 'HTML' as const,
  link_preview_options: { is_disabled: true },
});
