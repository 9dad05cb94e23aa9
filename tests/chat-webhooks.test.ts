import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { queryLocalD1 } from '../scripts/lib/local-d1.ts';
import type { RunningServer } from '../scripts/lib/local-server.ts';
import {
  type ChatReceiver,
  discordRateLimit,
  type ReceivedMessage,
  slackRateLimit,
  startChatReceiver,
} from './support/chat-receiver.ts';
import { DiscordExecuteWebhookSchema, SlackIncomingWebhookSchema } from './support/chat-shapes.ts';
import { uniqueClientIp } from './support/client-ip.ts';
import {
  copyServedBuild,
  eventually,
  MINUTE_MS,
  minuteOf,
  publishedReset,
  publishInCopy,
  runCron as runCronAt,
  runCronAhead,
  type ServedCopy,
} from './support/served-delivery.ts';
import { scaled } from '../scripts/lib/load-scaled.ts';

/**
 * Discord and Slack end to end in workerd, as tests/push-dispatch.test.ts does push: a copy of the build served
 * with the loopback receiver allowed (for this file only: a variable of its server, never of `npm start`); webhooks
 * on loopback connected over HTTP; the first cron run meets the history. Two resets are then published in the
 * copy's data set and the server restarted on the same state (as a deploy is); the cron runs, the real local queue
 * fans out, and its consumer posts to the receivers. Each body is held to the platform's documented shape
 * (tests/support/chat-shapes.ts, written from their docs) and to the words and links written here by hand.
 */

const builtBaseUrl = inject('baseUrl');
let copy: ServedCopy;
let server: RunningServer;
let receiver: ChatReceiver;

const write = (method: 'POST' | 'DELETE', body: unknown) =>
  fetch(`${server.baseUrl}/api/webhooks`, {
    method,
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': uniqueClientIp() },
    body: JSON.stringify(body),
  });

interface Webhook {
  path: string;
  url: string;
}
let sequence = 0;
async function connect(platform: 'discord' | 'slack', locale: 'en' | 'zh'): Promise<Webhook> {
  sequence += 1;
  const path =
    platform === 'discord' ? `/api/webhooks/10${sequence}/token-${sequence}` : `/services/T0/B${sequence}/secret`;
  const url = `${receiver.origin}${path}`;
  const response = await write('POST', { url, providers: ['provider_a'], kinds: ['reset'], locale });
  expect(response.status, await response.clone().text()).toBe(201);
  expect(await response.json()).toEqual({ platform, providers: ['provider_a'], kinds: ['reset'], locale });
  // Told at once, before the answer, in its language: one message, in the platform's documented shape.
  const told = receiver.received.filter((message) => message.path === path);
  expect(told.map(titleOf)).toEqual([locale === 'zh' ? '已连接到 Departures Board' : 'Connected to Departures Board']);
  const shape = platform === 'slack' ? SlackIncomingWebhookSchema : DiscordExecuteWebhookSchema;
  expect(shape.safeParse(told[0]!.body).error?.issues ?? []).toEqual([]);
  return { path, url };
}

let startMinute: Date;
const minutesAfterStart = (minutes: number) => new Date(startMinute.getTime() + minutes * MINUTE_MS);

const runCron = (at: Date) => runCronAt(server, at);

/** A reset announced five minutes before the start. */
const reset = (id: string, effectiveAt: Date | null) => publishedReset(id, minutesAfterStart(-5), effectiveAt);
/** Each reset's summary, as publishedReset writes it: what a message must carry, written out here. */
const SUMMARY = (id: string) => `Limits reset for everyone (${id}).`;

/** The event and moment a message is about, read from the link to the event's anchor that each platform carries. */
const eventOf = (message: ReceivedMessage): string => {
  const text = JSON.stringify(message.body);
  return /#event-(e2e-[a-z]+)/.exec(text)?.[1] ?? 'none';
};
const titleOf = (message: ReceivedMessage): string => {
  const body = message.body as { content?: string; text?: string };
  return body.content ?? body.text ?? '';
};
/** "event: title" of each message `webhook` took (2xx), sorted. */
const accepted = (webhook: Webhook) =>
  receiver.received
    .filter((message) => message.path === webhook.path && message.status < 300)
    .map((message) => `${eventOf(message)}: ${titleOf(message)}`)
    .sort();

async function acceptedEventually(webhook: Webhook, count: number): Promise<string[]> {
  await eventually(() => accepted(webhook).length >= count, `${webhook.path} took ${count}`);
  return accepted(webhook);
}

let discordEnglish: Webhook;
let discordChinese: Webhook;
let slackEnglish: Webhook;
let slackChinese: Webhook;
let deleted: Webhook;
let discordLimited: Webhook;
let slackLimited: Webhook;
let effectiveAt: Date;

beforeAll(async () => {
  startMinute = minuteOf(new Date());
  effectiveAt = minutesAfterStart(60);
  receiver = await startChatReceiver();
  copy = await copyServedBuild('chat');

  server = await copy.serve();
  discordEnglish = await connect('discord', 'en');
  discordChinese = await connect('discord', 'zh');
  slackEnglish = await connect('slack', 'en');
  slackChinese = await connect('slack', 'zh');
  deleted = await connect('discord', 'en');
  discordLimited = await connect('discord', 'en');
  slackLimited = await connect('slack', 'en');
  // The first dispatch meets the fixture's history: nothing of it is posted. What the receiver counts from here on
  // is the events' messages: the connected ones were checked as each webhook was connected.
  await runCron(startMinute);
  await server.stop();
  receiver.forget();

  await publishInCopy(copy, reset('e2e-now', null), reset('e2e-later', effectiveAt));
  receiver.answerNext(deleted.path, { status: 404, body: '{"message": "Unknown Webhook", "code": 10015}' });
  receiver.answerNext(deleted.path, { status: 404 }, { status: 404 });
  receiver.answerNext(discordLimited.path, discordRateLimit(1.5));
  receiver.answerNext(slackLimited.path, slackRateLimit(1));
  server = await copy.serve();
}, scaled(240_000));

afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  await copy?.remove();
});

describe('chat webhooks, from a published event to a channel', () => {
  it('posts each new event once to Discord and Slack, in each language, in the platforms’ documented shapes', async () => {
    await runCron(minutesAfterStart(1));
    await runCron(minutesAfterStart(2));
    const scheduledFor = `${effectiveAt.toISOString().slice(0, 10)} ${effectiveAt.toISOString().slice(11, 16)} UTC`;
    // The same minute as Chinese writes it (docs/glossary/zh.md), by the test's own hand: `2026年6月15日 10:30（UTC）`.
    const chineseMinuteOf = (iso: string) =>
      `${Number(iso.slice(0, 4))}年${Number(iso.slice(5, 7))}月${Number(iso.slice(8, 10))}日 ${iso.slice(11, 16)}（UTC）`;
    expect(await acceptedEventually(discordEnglish, 2)).toEqual([
      'e2e-later: Provider A: Reset scheduled',
      'e2e-now: Provider A: Reset',
    ]);
    expect(await acceptedEventually(slackEnglish, 2)).toEqual([
      'e2e-later: Provider A: Reset scheduled',
      'e2e-now: Provider A: Reset',
    ]);
    for (const webhook of [discordChinese, slackChinese])
      expect(await acceptedEventually(webhook, 2)).toEqual([
        'e2e-later: 供应商 A：重置已排定',
        'e2e-now: 供应商 A：重置',
      ]);

    const announcedAt = minutesAfterStart(-5).toISOString();
    const seconds = Math.floor(Date.parse(announcedAt) / 1000);
    const message = (webhook: Webhook, event: string) =>
      receiver.received.find((received) => received.path === webhook.path && eventOf(received) === event)!;
    for (const webhook of [discordEnglish, discordChinese, slackEnglish, slackChinese])
      for (const event of ['e2e-now', 'e2e-later']) {
        expect(message(webhook, event).headers['content-type']).toBe('application/json');
        const shape = webhook.path.startsWith('/services/') ? SlackIncomingWebhookSchema : DiscordExecuteWebhookSchema;
        expect(shape.safeParse(message(webhook, event).body).error?.issues ?? []).toEqual([]);
      }

    expect(message(discordEnglish, 'e2e-now').body).toStrictEqual({
      content: 'Provider A: Reset',
      allowed_mentions: { parse: [] },
      embeds: [
        {
          title: 'Provider A: Reset',
          url: `${builtBaseUrl}/provider_a#event-e2e-now`,
          description: `${SUMMARY('e2e-now')}\n\n[Original post](https://posts.provider-a.example/e2e-now)`,
          timestamp: announcedAt,
        },
      ],
    });
    expect(message(discordChinese, 'e2e-later').body).toMatchObject({
      content: '供应商 A：重置已排定',
      embeds: [
        {
          url: `${builtBaseUrl}/zh/provider_a#event-e2e-later`,
          description: `定于 ${chineseMinuteOf(effectiveAt.toISOString())}。${SUMMARY('e2e-later')}\n\n[原帖](https://posts.provider-a.example/e2e-later)`,
          timestamp: announcedAt,
        },
      ],
    });
    expect(message(slackChinese, 'e2e-now').body).toStrictEqual({
      text: '供应商 A：重置',
      blocks: [
        {
          type: 'section',
          text: {
            type: 'mrkdwn',
            text: `*<${builtBaseUrl}/zh/provider_a#event-e2e-now|供应商 A：重置>*\n${SUMMARY('e2e-now')}`,
          },
        },
        {
          type: 'context',
          elements: [
            {
              type: 'mrkdwn',
              text: `公布于 <!date^${seconds}^{date_short_pretty} {time}|${chineseMinuteOf(announcedAt)}> · <https://posts.provider-a.example/e2e-now|原帖>`,
            },
          ],
        },
      ],
    });
    expect(message(slackEnglish, 'e2e-later').body).toMatchObject({
      text: 'Provider A: Reset scheduled',
      blocks: [
        {
          text: {
            text: `*<${builtBaseUrl}/provider_a#event-e2e-later|Provider A: Reset scheduled>*\nScheduled for ${scheduledFor}. ${SUMMARY('e2e-later')}`,
          },
        },
        { elements: [{ text: expect.stringMatching(new RegExp(`^Announced <!date\\^${seconds}\\^`)) }] },
      ],
    });
  });

  it('waits as a 429 asks before trying again (Discord’s retry_after, Slack’s Retry-After), until posted', async () => {
    for (const [webhook, waitMs] of [
      [discordLimited, 1500],
      [slackLimited, 1000],
    ] as const) {
      await acceptedEventually(webhook, 2);
      const messages = receiver.received.filter((received) => received.path === webhook.path);
      const limited = messages.filter((received) => received.status === 429);
      expect(limited).toHaveLength(1);
      const retry = messages.find((received) => received.status < 300 && eventOf(received) === eventOf(limited[0]!));
      // Not before the wait the platform asked for.
      expect(retry!.at - limited[0]!.at).toBeGreaterThanOrEqual(waitMs);
      expect(accepted(webhook)).toEqual(['e2e-later: Provider A: Reset scheduled', 'e2e-now: Provider A: Reset']);
    }
  });

  it('forgets a webhook that answered 404, and posts the reset when it takes effect, once, to the others', async () => {
    expect(
      receiver.received.filter((received) => received.path === deleted.path).every(({ status }) => status === 404),
    ).toBe(true);
    const stored = async () =>
      (
        await queryLocalD1(
          copy.state,
          "SELECT address AS url FROM subscribers WHERE channel IN ('discord', 'slack') ORDER BY id",
        )
      ).map((row) => String(row['url']));
    expect(await stored()).not.toContain(deleted.url);
    expect(await stored()).toHaveLength(6);

    await runCronAhead(copy, server, minutesAfterStart(59));
    await runCron(effectiveAt);
    await runCron(minutesAfterStart(61));
    for (const webhook of [discordEnglish, slackEnglish, discordLimited, slackLimited])
      expect(await acceptedEventually(webhook, 3)).toEqual([
        'e2e-later: Provider A: Reset now',
        'e2e-later: Provider A: Reset scheduled',
        'e2e-now: Provider A: Reset',
      ]);
    for (const webhook of [discordChinese, slackChinese])
      expect(await acceptedEventually(webhook, 3)).toEqual([
        'e2e-later: 供应商 A：重置已排定',
        'e2e-later: 供应商 A：重置已生效',
        'e2e-now: 供应商 A：重置',
      ]);
    expect(receiver.received.filter((received) => received.path === deleted.path).map(titleOf)).not.toContain(
      'Provider A: Reset now',
    );
  });

  it('answers the write path as decided: a known URL replaced, a URL of no platform refused, a DELETE always 204', async () => {
    const again = await write('POST', { url: discordEnglish.url, providers: ['provider_b'], locale: 'zh' });
    expect(again.status).toBe(200);
    // The channel was told when it was connected (and the receiver's records forgotten since): new choices are not
    // posted to it. Every message it has is an event's.
    expect(receiver.received.filter((message) => message.path === discordEnglish.path).map(eventOf)).not.toContain(
      'none',
    );
    expect(await again.json()).toEqual({
      platform: 'discord',
      providers: ['provider_b'],
      kinds: ['reset'],
      locale: 'zh',
    });
    const refused = await write('POST', { url: `${receiver.origin}/not/a/webhook`, providers: ['provider_a'] });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: 'invalid_request', issues: [{ path: ['url'] }] });
    expect((await write('DELETE', { url: slackEnglish.url })).status).toBe(204);
    expect((await write('DELETE', { url: slackEnglish.url })).status).toBe(204);
    const rows = await queryLocalD1(
      copy.state,
      "SELECT address AS url, locale FROM subscribers WHERE channel IN ('discord', 'slack') ORDER BY id",
    );
    expect(rows.map((row) => String(row['url']))).not.toContain(slackEnglish.url);
    expect(rows.find((row) => row['url'] === discordEnglish.url)).toEqual({ url: discordEnglish.url, locale: 'zh' });
    const get = await fetch(`${server.baseUrl}/api/webhooks`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, DELETE, OPTIONS');
  });
});
