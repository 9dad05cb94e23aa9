import { boardFromSummaries } from '../../src/core/board.ts';
import { providerKindTopics } from '../../src/core/delivery/topics.ts';
import { CACHE_POLICIES } from '../../src/core/routes/policy.ts';
import {
  sendMessageBody,
  TELEGRAM_UPDATE_MAX_BYTES,
  type TelegramRequest,
  TelegramUpdateSchema,
  telegramRequest,
  telegramReplyText,
  telegramStatusText,
} from '../../src/core/telegram/bot.ts';
import { BASE_URL } from '../../src/server/base-url.ts';
import type { EdgeContext } from '../../src/server/context.ts';
import { subscriberCap } from '../../src/server/delivery/caps.ts';
import { telegramChannel } from '../../src/server/delivery/channels/telegram/index.ts';
import { WRITE_RETRY_AFTER_SECONDS } from '../../src/server/delivery/write-path.ts';
import { deleteSubscriber, saveSubscriber } from '../../src/server/delivery/subscribers.ts';
import { readJsonWrite, storing } from '../../src/server/http/json-write.ts';
import { secondsLeftInWindow, withinRateLimitOf } from '../../src/server/http/rate-limit.ts';
import { channelFull, jsonResponse, rateLimited } from '../../src/server/http/responses.ts';
import type { EdgeHandlers } from '../route-handler.ts';

/**
 * `POST /telegram`, the bot's webhook (decisions.md, "More channels: Telegram, ntfy, signed webhooks";
 * docs/delivery.md, "Telegram"). The secret header first (401, also when no bot is configured), then the body as
 * every write reads it (415, the size, 400), then the command; a subscription's change spends the write limit of
 * its chat. A command is answered in the
 * webhook's answer itself (the Bot API's "making requests when getting updates": `{"method":"sendMessage",…}`);
 * anything else is taken (`200 {}`) and ignored, so that Telegram does not send it again.
 */

const noStore = { 'Cache-Control': CACHE_POLICIES.noStore };
const unauthorized = () => jsonResponse({ error: 'unauthorized' }, { status: 401, headers: noStore });
const unavailable = () =>
  jsonResponse(
    { error: 'telegram_unavailable' },
    { status: 503, headers: { ...noStore, 'Retry-After': String(WRITE_RETRY_AFTER_SECONDS) } },
  );
const reply = (chatId: number, text: string) =>
  jsonResponse({ method: 'sendMessage', ...sendMessageBody(chatId, text) }, { headers: noStore });

/** The header against the secret, in time that does not depend on where they differ. */
function secretMatches(header: string | null, secret: string | undefined): boolean {
  if (header === null || secret === undefined || secret === '') return false;
  const [a, b] = [new TextEncoder().encode(header), new TextEncoder().encode(secret)];
  let difference = a.length ^ b.length;
  for (let index = 0; index < b.length; index += 1) difference |= (a[index] ?? 0) ^ b[index]!;
  return difference === 0;
}

async function answer(context: EdgeContext, { chatId, locale, command }: TelegramRequest): Promise<Response> {
  if (command.name === 'start') return reply(chatId, telegramReplyText({ kind: 'start' }, locale));
  if (command.name === 'subscribe_usage') return reply(chatId, telegramReplyText({ kind: 'usage' }, locale));
  if (command.name === 'status') {
    const board = boardFromSummaries(await context.summaries(), context.now);
    return reply(chatId, telegramStatusText(board.providers, context.now, locale, BASE_URL));
  }
  const { DB: db, DELIVERY_QUEUE: queue, WRITE_LIMITER: limiter } = context.env;
  const key = String(chatId);
  // The write limit per chat: every update comes from Telegram's own servers, so a limit per address would be
  // one budget for every chat of the bot.
  if (limiter !== undefined && !(await withinRateLimitOf(limiter, `telegram:${key}`, 'Write')))
    return rateLimited(secondsLeftInWindow(context.now));
  if (db === undefined || queue === undefined || !telegramChannel.ready(context.env)) return unavailable();
  return storing('telegram', unavailable, async () => {
    if (command.name === 'unsubscribe') {
      await deleteSubscriber(db, 'telegram', key);
      return reply(chatId, telegramReplyText({ kind: 'unsubscribed' }, locale));
    }
    const write = {
      channel: 'telegram' as const,
      key,
      address: key,
      locale,
      data: {},
      expiresAt: null,
      topics: providerKindTopics(command.providers, command.kinds),
    };
    const cap = subscriberCap('telegram', context.env.SUBSCRIBER_CAPS);
    if ((await saveSubscriber(db, write, cap, context.now)) === 'full') return channelFull('telegram');
    return reply(chatId, telegramReplyText({ kind: 'subscribed', ...command }, locale));
  });
}

async function handleTelegramUpdate(context: EdgeContext): Promise<Response> {
  if (
    !secretMatches(context.request.headers.get('x-telegram-bot-api-secret-token'), context.env.TELEGRAM_WEBHOOK_SECRET)
  )
    return unauthorized();
  const body = await readJsonWrite(context, TelegramUpdateSchema, TELEGRAM_UPDATE_MAX_BYTES, false);
  if (!body.ok) return body.response;
  const request = telegramRequest(body.value, context.env.TELEGRAM_BOT_USERNAME);
  return request === null ? jsonResponse({}, { headers: noStore }) : answer(context, request);
}

export const TELEGRAM_HANDLERS = {
  postTelegramUpdate: handleTelegramUpdate,
} satisfies Partial<EdgeHandlers>;
