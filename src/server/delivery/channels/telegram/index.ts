import { outboundAddress } from '../../../../core/outbound/address.ts';
import { sendMessageBody, telegramEventText } from '../../../../core/telegram/bot.ts';
import type { Locale } from '../../../../core/vocabulary.ts';
import type { DeliveryBindings } from '../../bindings.ts';
import type { DeliveryChannel, DeliveryOutcome, SendContext } from '../../channel.ts';

/**
 * Telegram (decisions.md, "More channels: Telegram, ntfy, signed webhooks"): a subscriber is a chat (its id is the
 * address), sent each message with the Bot API's `sendMessage` in HTML parse mode. The bot's token is its own secret:
 * without it the channel is not ready and its deliveries wait. It is in every API URL, so no log line carries a URL.
 */

export const TELEGRAM_API_DEFAULT = 'https://api.telegram.org';
const SEND_TIMEOUT_MS = 10_000;
const CHAT_ID = /^-?\d{1,20}$/;

/** `TELEGRAM_API_URL` (default the public Bot API), or `undefined` when the outbound-address policy refuses it. */
function apiBase(env: DeliveryBindings, rules: SendContext['rules']): string | undefined {
  const address = outboundAddress(env.TELEGRAM_API_URL ?? TELEGRAM_API_DEFAULT, rules);
  return address.ok ? address.url.replace(/\/+$/, '') : undefined;
}

/** The Bot API's answer body (`{"ok","result"}` or `{"ok":false,"error_code","description","parameters"}`). */
interface BotAnswer {
  description?: unknown;
  parameters?: { retry_after?: unknown };
}

/**
 * One `sendMessage` and what its answer means: 2xx sent; 403 (the bot blocked, removed from the group or channel)
 * the chat gone; 429 a wait of `parameters.retry_after` seconds, no failure; 400 a chat that no longer exists gone,
 * another 400 failed; 401 and 404 (the bot's token refused) and 5xx or no answer retried.
 */
export async function sendTelegramMessage(
  chatId: string,
  text: string,
  context: Pick<SendContext, 'env' | 'rules' | 'fetcher'>,
): Promise<DeliveryOutcome> {
  const token = context.env.TELEGRAM_BOT_TOKEN;
  const base = apiBase(context.env, context.rules);
  if (token === undefined || token === '' || base === undefined)
    return { kind: 'retry', reason: 'the Telegram bot is not configured' };
  let response: Response;
  try {
    // Called unbound: workerd's fetch refuses another `this` ("Illegal invocation").
    const { fetcher } = context;
    response = await fetcher(`${base}/bot${token}/sendMessage`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(sendMessageBody(Number(chatId), text)),
      redirect: 'manual',
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
  } catch (error) {
    return {
      kind: 'retry',
      reason: `the Bot API could not be reached (${error instanceof Error ? error.name : 'error'})`,
    };
  }
  const { status } = response;
  const answer = (await response.json().catch(() => ({}))) as BotAnswer;
  const reason = `the Bot API answered HTTP ${status}`;
  if (status >= 200 && status < 300) return { kind: 'sent' };
  if (status === 403) return { kind: 'gone', reason };
  if (status === 429) {
    const seconds = Number(answer.parameters?.retry_after);
    return {
      kind: 'wait',
      retryAfterSeconds: Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds) : undefined,
      reason,
    };
  }
  if (status === 400 && /chat not found/i.test(String(answer.description ?? ''))) return { kind: 'gone', reason };
  if (status === 400) return { kind: 'failed', reason };
  return { kind: 'retry', reason };
}

export const telegramChannel: DeliveryChannel = {
  name: 'telegram',
  ready: (env) => (env.TELEGRAM_BOT_TOKEN ?? '') !== '',
  accepts: (address) => CHAT_ID.test(address),
  async sender({ event, transition }, context) {
    const texts = new Map<Locale, string>();
    const textFor = (locale: Locale) => {
      if (!texts.has(locale)) texts.set(locale, telegramEventText(event, transition, locale, context.baseUrl));
      return texts.get(locale)!;
    };
    return (subscriber) => sendTelegramMessage(subscriber.address, textFor(subscriber.locale ?? 'en'), context);
  },
};
