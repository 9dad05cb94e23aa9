import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { queryLocalD1 } from '../scripts/lib/local-d1.ts';
import { type RunningServer, startServer } from '../scripts/lib/local-server.ts';
import { uniqueClientIp } from './support/client-ip.ts';
import {
  copyServedBuild,
  eventually,
  MINUTE_MS,
  minuteOf,
  publishedReset,
  publishInCopy,
  runCron,
  runCronAhead,
  type ServedCopy,
} from './support/served-delivery.ts';
import {
  blocked,
  type SentMessage,
  startTelegramReceiver,
  type TelegramReceiver,
  tooManyRequests,
} from './support/telegram-receiver.ts';
import { scaled } from '../scripts/lib/load-scaled.ts';

/**
 * Telegram end to end in workerd (decisions.md, "More channels: Telegram, ntfy, signed webhooks"), as
 * tests/chat-webhooks.test.ts does Discord and Slack: a copy of the build served with the loopback switch and the
 * Bot API's address at a local receiver written from its documents (tests/support/telegram-receiver.ts). Chats
 * subscribe by sending `/subscribe` to `POST /telegram` as Telegram would; the first cron meets the history; two
 * resets are published and the server restarted on the same state; the cron runs and the real local queue delivers.
 */

const builtBaseUrl = inject('baseUrl');
const TOKEN = '123456789:TEST-token_for-the-receiver';
const SECRET = 'webhook-secret-of-this-test';
let copy: ServedCopy;
let server: RunningServer;
let receiver: TelegramReceiver;

const serve = () =>
  startServer({
    workerConfig: path.join(copy.dir, 'server/wrangler.json'),
    persistTo: copy.state,
    vars: {
      ALLOW_LOOPBACK_RECEIVERS: 'true',
      TELEGRAM_API_URL: receiver.origin,
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_WEBHOOK_SECRET: SECRET,
      TELEGRAM_BOT_USERNAME: 'DeparturesTestBot',
    },
  });

let updateId = 0;
const sendUpdate = (
  chat: { id: number; type: string },
  text: string,
  options: { language?: string; secret?: string | null; channel?: boolean } = {},
) => {
  updateId += 1;
  const message = {
    message_id: updateId,
    date: Math.floor(Date.now() / 1000),
    chat,
    ...(options.channel
      ? {}
      : { from: { id: 7, is_bot: false, first_name: 'T', language_code: options.language ?? 'en' } }),
    text,
  };
  const headers: Record<string, string> = { 'content-type': 'application/json', 'cf-connecting-ip': uniqueClientIp() };
  if (options.secret !== null) headers['x-telegram-bot-api-secret-token'] = options.secret ?? SECRET;
  return fetch(`${server.baseUrl}/telegram`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ update_id: updateId, [options.channel ? 'channel_post' : 'message']: message }),
  });
};

const ENGLISH = { id: 1001, type: 'private' };
const CHINESE = { id: 1002, type: 'private' };
const BLOCKED = { id: 1003, type: 'private' };
const LIMITED = { id: 1004, type: 'private' };
const GROUP = { id: -100200, type: 'supergroup' };
const CHANNEL = { id: -100300, type: 'channel' };

let startMinute: Date;
const minutesAfterStart = (minutes: number) => new Date(startMinute.getTime() + minutes * MINUTE_MS);
let effectiveAt: Date;

const eventOf = (sent: SentMessage) => /#event-(e2e-[a-z]+)/.exec(sent.body.text ?? '')?.[1] ?? 'none';
const titleOf = (sent: SentMessage) => /^<b>(.*?)<\/b>/.exec(sent.body.text ?? '')?.[1] ?? '';
/** "event: title" of each message a chat accepted, sorted. */
const accepted = (chat: { id: number }) =>
  receiver
    .accepted(chat.id)
    .map((sent) => `${eventOf(sent)}: ${titleOf(sent)}`)
    .sort();
async function acceptedEventually(chat: { id: number }, count: number): Promise<string[]> {
  await eventually(() => accepted(chat).length >= count, `chat ${chat.id} took ${count}`);
  return accepted(chat);
}
const storedChats = async () =>
  (await queryLocalD1(copy.state, "SELECT address FROM subscribers WHERE channel = 'telegram' ORDER BY id")).map(
    (row) => String(row['address']),
  );

beforeAll(async () => {
  startMinute = minuteOf(new Date());
  effectiveAt = minutesAfterStart(60);
  receiver = await startTelegramReceiver(TOKEN);
  copy = await copyServedBuild('telegram');
  server = await serve();

  for (const [chat, language] of [
    [ENGLISH, 'en'],
    [CHINESE, 'zh-hans'],
    [BLOCKED, 'en'],
    [LIMITED, 'en'],
  ] as const) {
    const response = await sendUpdate(chat, '/subscribe provider_a', { language });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await response.json()).toMatchObject({ method: 'sendMessage', chat_id: chat.id, parse_mode: 'HTML' });
  }
  const group = await sendUpdate(GROUP, '/subscribe@DeparturesTestBot provider_a reset');
  expect(((await group.json()) as { text: string }).text).toBe(
    'Subscribed: Provider A. Kinds: Reset. Send /unsubscribe to stop.',
  );
  const channel = await sendUpdate(CHANNEL, '/subscribe provider_b', { channel: true });
  expect(((await channel.json()) as { chat_id: number }).chat_id).toBe(CHANNEL.id);
  // One subscription per chat: a second /subscribe replaces the first's choices.
  await sendUpdate(CHANNEL, '/subscribe provider_a', { channel: true });
  expect(await storedChats()).toEqual(['1001', '1002', '1003', '1004', '-100200', '-100300']);

  await runCron(server, startMinute);
  await server.stop();
  receiver.received.length = 0;

  await publishInCopy(
    copy,
    publishedReset('e2e-now', minutesAfterStart(-5), null),
    publishedReset('e2e-later', minutesAfterStart(-5), effectiveAt),
  );
  // Both events' messages may be under way before the first 403 is read: the bot stays blocked for both.
  receiver.answerNext(BLOCKED.id, blocked(), blocked());
  receiver.answerNext(LIMITED.id, tooManyRequests(2));
  server = await serve();
}, scaled(240_000));

afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  await copy?.remove();
});

describe('Telegram, from a published event to a chat', () => {
  it('sends each new event once to each chat (private, group, channel), in its language, through sendMessage', async () => {
    await runCron(server, minutesAfterStart(1));
    await runCron(server, minutesAfterStart(2));
    for (const chat of [ENGLISH, GROUP, CHANNEL])
      expect(await acceptedEventually(chat, 2)).toEqual([
        'e2e-later: Provider A: Reset scheduled',
        'e2e-now: Provider A: Reset',
      ]);
    expect(await acceptedEventually(CHINESE, 2)).toEqual([
      'e2e-later: 供应商 A：重置已排定',
      'e2e-now: 供应商 A：重置',
    ]);
    const now = receiver.accepted(ENGLISH.id).find((sent) => eventOf(sent) === 'e2e-now')!;
    expect(now.method).toBe('sendMessage');
    expect(now.body).toEqual({
      chat_id: ENGLISH.id,
      text:
        '<b>Provider A: Reset</b>\nLimits reset for everyone (e2e-now).\n\n' +
        `<a href="${builtBaseUrl}/provider_a#event-e2e-now">On the board</a> · <a href="https://posts.provider-a.example/e2e-now">Original post</a>`,
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
    });
  });

  it('forgets a chat whose bot was blocked (403)', async () => {
    await eventually(async () => !(await storedChats()).includes(String(BLOCKED.id)), 'the blocked chat removed');
    expect(receiver.received.filter((sent) => sent.body.chat_id === BLOCKED.id).map((sent) => sent.status)).toContain(
      403,
    );
    expect(receiver.accepted(BLOCKED.id)).toEqual([]);
  });

  it('waits the retry_after a 429 asks for, then sends', async () => {
    expect(await acceptedEventually(LIMITED, 2)).toEqual([
      'e2e-later: Provider A: Reset scheduled',
      'e2e-now: Provider A: Reset',
    ]);
    const sent = receiver.received.filter((one) => one.body.chat_id === LIMITED.id);
    const limited = sent.filter((one) => one.status === 429);
    expect(limited).toHaveLength(1);
    const retry = sent.find((one) => one.status < 300 && eventOf(one) === eventOf(limited[0]!));
    expect(retry!.at - limited[0]!.at).toBeGreaterThanOrEqual(2000);
  });

  it('sends a reset when it takes effect, once, and nothing twice', async () => {
    await runCronAhead(copy, server, minutesAfterStart(59));
    await runCron(server, effectiveAt);
    await runCron(server, minutesAfterStart(61));
    for (const chat of [ENGLISH, GROUP, CHANNEL, LIMITED])
      expect(await acceptedEventually(chat, 3)).toEqual([
        'e2e-later: Provider A: Reset now',
        'e2e-later: Provider A: Reset scheduled',
        'e2e-now: Provider A: Reset',
      ]);
    expect(await acceptedEventually(CHINESE, 3)).toContain('e2e-later: 供应商 A：重置已生效');
    expect(receiver.received.every((sent) => sent.token === TOKEN)).toBe(true);
  });

  it('answers the webhook as decided: 401 before anything else, /status, /unsubscribe', async () => {
    for (const secret of [null, 'wrong'] as const) {
      const response = await sendUpdate(ENGLISH, '/unsubscribe', { secret });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: 'unauthorized' });
    }
    expect(await storedChats()).toContain(String(ENGLISH.id));
    const status = (await (await sendUpdate(GROUP, '/status@DeparturesTestBot')).json()) as { text: string };
    expect(status.text).toMatch(/^<b>Provider A<\/b>: /);
    const gone = await sendUpdate(ENGLISH, '/unsubscribe');
    expect(((await gone.json()) as { text: string }).text).toBe(
      'Unsubscribed: nothing more will be posted to this chat.',
    );
    expect(await storedChats()).not.toContain(String(ENGLISH.id));
    const other = await fetch(`${server.baseUrl}/telegram`);
    expect(other.status).toBe(405);
  });
});
