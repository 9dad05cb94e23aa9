import { describe, expect, it, vi } from 'vitest';
import { edgeApp } from '../../scripts/lib/edge-app.ts';
import { BASE_URL } from '../../src/server/base-url.ts';
import { discordRateLimit, type ReceivedMessage } from '../../tests/support/chat-receiver.ts';
import { DiscordExecuteWebhookSchema, SlackIncomingWebhookSchema } from '../../tests/support/chat-shapes.ts';
import { deliveryWing, type WingEnv } from '../../tests/support/delivery-wing.ts';
import { REAL_D1 } from '../../tests/support/state-d1.ts';

/**
 * A Discord or Slack channel is told at once that it is connected (docs/delivery.md, "Writing a subscription"): the
 * webhooks' write path in-process over a real local D1, sending to the chat receiver on loopback (the loopback switch
 * on, as tests/support/delivery-wing.ts sets it). Exactly one message per new webhook, in the platform's documented
 * shape and the subscription's language; none for a known webhook whose choices change; a platform that refuses it
 * for good refuses the write and nothing is stored; a platform that is only busy or down does not. The words and
 * links expected are written here by hand.
 */

const wing = deliveryWing();
const app = (overrides: Partial<WingEnv> = {}) => edgeApp(wing.files(), { push: wing.env(overrides) });

let sequence = 0;
/** A new webhook path on the receiver, in the platform's own form (src/core/outbound/chat-platform.ts). */
function webhook(platform: 'discord' | 'slack') {
  sequence += 1;
  const path =
    platform === 'discord' ? `/api/webhooks/9${sequence}/connect-${sequence}` : `/services/T9/B${sequence}/connect`;
  return { path, url: `${wing.chat.origin}${path}` };
}

const connect = (url: string, choices: object = {}, overrides: Partial<WingEnv> = {}) =>
  app(overrides).request('/api/webhooks', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ url, providers: ['provider_a', 'provider_c'], kinds: ['reset', 'boost'], ...choices }),
  });

const at = (path: string): ReceivedMessage[] => wing.chat.received.filter((message) => message.path === path);
const stored = async () =>
  (
    await wing.rows<{ address: string; locale: string; topics: string }>(
      `SELECT s.address, s.locale, group_concat(t.topic, ' ') AS topics FROM subscribers s
       JOIN subscriber_topics t ON t.subscriber_id = s.id GROUP BY s.id ORDER BY s.id`,
    )
  ).map((row) => ({ ...row, topics: row.topics.split(' ').sort().join(' ') }));

describe('a new webhook is sent one message saying it is connected', REAL_D1, () => {
  it.each([
    ['discord', 'en', 'Connected to Departures Board', `${BASE_URL}/#notify`, 'Provider A, Provider C', 'in English'],
    ['discord', 'zh', '已连接到 Departures Board', `${BASE_URL}/zh#notify`, '供应商 A、供应商 C', '用中文'],
    ['slack', 'en', 'Connected to Departures Board', `${BASE_URL}/#notify`, 'Provider A, Provider C', 'in English'],
    ['slack', 'zh', '已连接到 Departures Board', `${BASE_URL}/zh#notify`, '供应商 A、供应商 C', '用中文'],
  ] as const)(
    '%s, %s: 201, and the channel gets one message in the platform’s shape',
    async (platform, locale, title, board, providers, language) => {
      const { path, url } = webhook(platform);
      const response = await connect(url, { locale });
      expect(response?.status, await response?.clone().text()).toBe(201);
      expect(await response!.json()).toEqual({
        platform,
        providers: ['provider_a', 'provider_c'],
        kinds: ['reset', 'boost'],
        locale,
      });
      const [message, ...more] = at(path);
      expect(more).toEqual([]);
      expect(message!.headers['content-type']).toBe('application/json');
      // Not an event's delivery: no delivery id for a receiver to tell copies by.
      expect(message!.headers['idempotency-key']).toBeUndefined();
      if (platform === 'discord') {
        expect(DiscordExecuteWebhookSchema.safeParse(message!.body).error?.issues ?? []).toEqual([]);
        expect(message!.body).toMatchObject({
          content: title,
          allowed_mentions: { parse: [] },
          embeds: [{ title, url: board, description: expect.stringContaining(providers) }],
        });
      } else {
        expect(SlackIncomingWebhookSchema.safeParse(message!.body).error?.issues ?? []).toEqual([]);
        expect(message!.body).toMatchObject({
          text: title,
          blocks: [
            { type: 'section', text: { text: expect.stringMatching(`^\\*<${board}\\|${title}>\\*\n.*${providers}`) } },
            { type: 'context', elements: [{ text: expect.stringContaining(`<${board}|`) }] },
          ],
        });
      }
      expect(JSON.stringify(message!.body)).toContain(language);
      expect(await stored()).toEqual([
        { address: url, locale, topics: 'provider_a/boost provider_a/reset provider_c/boost provider_c/reset' },
      ]);
    },
  );

  it('a known webhook’s new choices are stored (200) and sent nothing: the channel was told when it was connected', async () => {
    const { path, url } = webhook('discord');
    expect((await connect(url))?.status).toBe(201);
    const again = await connect(url, { providers: ['provider_b'], kinds: ['reset'], locale: 'zh' });
    expect(again?.status).toBe(200);
    expect(at(path)).toHaveLength(1);
    expect(await stored()).toEqual([{ address: url, locale: 'zh', topics: 'provider_b/reset' }]);
  });
});

describe('a platform that refuses the message refuses the subscription', REAL_D1, () => {
  it.each([
    [
      'discord',
      404,
      '{"message": "Unknown Webhook", "code": 10015}',
      /^Discord answered HTTP 404 to a test message: no such webhook/,
    ],
    [
      'discord',
      401,
      '{"message": "Invalid Webhook Token", "code": 50027}',
      /^Discord answered HTTP 401 to a test message: this URL is not a webhook/,
    ],
    ['slack', 404, 'no_service', /^Slack answered HTTP 404 to a test message: no such webhook/],
    ['slack', 410, 'channel_is_archived', /^Slack answered HTTP 410/],
    ['slack', 403, 'invalid_token', /^Slack answered HTTP 403 to a test message: this URL is not a webhook/],
  ] as const)(
    '%s answering %i: 400 naming the problem at the url, nothing stored',
    async (platform, status, body, message) => {
      const { path, url } = webhook(platform);
      wing.chat.answerNext(path, { status, body });
      const response = await connect(url);
      expect(response?.status).toBe(400);
      expect(await response!.json()).toEqual({
        error: 'invalid_request',
        issues: [{ code: 'webhook_refused', path: ['url'], message: expect.stringMatching(message) }],
      });
      expect(at(path).map((received) => received.status)).toEqual([status]);
      expect(await stored()).toEqual([]);
      // Once the platform takes it (the URL copied right), the same URL is a new webhook: connected, and told so.
      expect((await connect(url))?.status).toBe(201);
      expect(at(path).map((received) => received.status)).toEqual([status, platform === 'discord' ? 204 : 200]);
    },
  );
});

describe('a platform only busy or down does not refuse it', REAL_D1, () => {
  it('429 or 503: stored (201), the message tried once and not again', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const limited = webhook('discord');
    const down = webhook('slack');
    wing.chat.answerNext(limited.path, discordRateLimit(2));
    wing.chat.answerNext(down.path, { status: 503, body: 'down' });
    expect((await connect(limited.url))?.status).toBe(201);
    expect((await connect(down.url))?.status).toBe(201);
    expect(at(limited.path).map((received) => received.status)).toEqual([429]);
    expect(at(down.path).map((received) => received.status)).toEqual([503]);
    expect((await stored()).map((row) => row.address)).toEqual([limited.url, down.url]);
    expect(wing.queued.sent).toEqual([]);
    vi.restoreAllMocks();
  });

  it('no answer at all (connections refused): stored (201)', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const { url } = webhook('discord');
    await wing.chat.power.refuseConnections();
    try {
      expect((await connect(url))?.status).toBe(201);
    } finally {
      await wing.chat.power.up();
      vi.restoreAllMocks();
    }
    expect((await stored()).map((row) => row.address)).toEqual([url]);
  });
});

describe('nothing is sent to a webhook that is not stored', REAL_D1, () => {
  it('a full channel (503 discord_full) or a database that fails (503 webhooks_unavailable)', async () => {
    const { path, url } = webhook('discord');
    const full = await connect(url, {}, { SUBSCRIBER_CAPS: JSON.stringify({ discord: 0 }) });
    expect(full?.status).toBe(503);
    expect(await full!.json()).toEqual({ error: 'discord_full' });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failing = () => Promise.reject(new Error('D1_ERROR: database is locked: SQLITE_BUSY'));
    const statement = { bind: () => statement, first: failing, run: failing, all: failing, raw: failing };
    const locked = { prepare: () => statement, batch: failing, exec: failing } as unknown as D1Database;
    const unavailable = await connect(url, {}, { DB: locked });
    expect(unavailable?.status).toBe(503);
    vi.restoreAllMocks();
    expect(at(path)).toEqual([]);
    expect(await stored()).toEqual([]);
  });
});
