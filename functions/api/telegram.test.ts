import { describe, expect, it } from 'vitest';
import { fixtureFiles } from '../../scripts/lib/built-files.ts';
import { edgeApp } from '../../scripts/lib/edge-app.ts';
import { NOW } from '../../src/core/test-events.ts';
import { withCommonHeaders } from '../../src/server/http/cors.ts';
import type { DeliveryBindings } from '../../src/server/delivery/bindings.ts';
import { issuesOf } from '../../tests/support/invalid-request.ts';

/**
 * `POST /telegram`, the bot's webhook, in-process (decisions.md, "More channels: Telegram, ntfy, signed webhooks"):
 * the secret header before anything else, then the body as every write reads it, then the command; commands that
 * need no store are answered here in full, a subscription meets the decided 503 (no D1 in-process; the served
 * tests/telegram.test.ts stores for real). Expectations written from the decision and the Bot API's documents.
 */

const files = fixtureFiles([], NOW);
type Bindings = Omit<DeliveryBindings, 'ASSETS'>;
const SECRET = 'a-secret_token-0123';
const configured: Bindings = {
  DELIVERY_QUEUE: {} as Queue,
  TELEGRAM_BOT_TOKEN: '123:abc',
  TELEGRAM_WEBHOOK_SECRET: SECRET,
  TELEGRAM_BOT_USERNAME: 'DeparturesBot',
};
const closed = { limit: async () => ({ success: false }) } as unknown as RateLimit;

const update = (text: string, from: Record<string, unknown> = { id: 5, is_bot: false, first_name: 'A' }) => ({
  update_id: 10,
  message: { message_id: 1, date: 0, chat: { id: 42, type: 'private' }, from, text },
});
const post = (body: unknown, headers: Record<string, string> = {}, bindings: Bindings = configured) =>
  edgeApp(files, { push: bindings }).request('/telegram', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Telegram-Bot-Api-Secret-Token': SECRET, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('POST /telegram: the secret header first', () => {
  it.each([
    ['no header', { 'X-Telegram-Bot-Api-Secret-Token': '' }],
    ['a wrong secret', { 'X-Telegram-Bot-Api-Secret-Token': `${SECRET}x` }],
    ['a prefix of the secret', { 'X-Telegram-Bot-Api-Secret-Token': SECRET.slice(0, 5) }],
  ])('%s: 401, before the media type, the body and the write limit', async (_name, headers) => {
    for (const [body, extra, bindings] of [
      [update('/start'), {}, configured],
      ['not json', { 'Content-Type': 'text/plain' }, configured],
      [update('/start'), {}, { ...configured, WRITE_LIMITER: closed }],
      ['x'.repeat(100_000), {}, configured],
    ] as const) {
      const response = await post(body, { ...headers, ...extra }, bindings);
      expect(response?.status).toBe(401);
      expect(await response!.json()).toEqual({ error: 'unauthorized' });
    }
  });

  it('401 also when no bot is configured, whatever the header says', async () => {
    for (const secret of [SECRET, '', 'anything'])
      expect((await post(update('/start'), { 'X-Telegram-Bot-Api-Secret-Token': secret }, {}))?.status).toBe(401);
  });
});

describe('POST /telegram: the body, as every write', () => {
  it('another media type is 415', async () => {
    const response = await post(JSON.stringify(update('/start')), { 'Content-Type': 'text/plain' });
    expect(response?.status).toBe(415);
    expect(await response!.json()).toMatchObject({ error: 'invalid_request' });
  });

  it.each([
    ['not JSON', '{"update_id":', 'invalid_json'],
    ['an array', '[]', 'invalid_type'],
    ['no update_id', { message: update('/start').message }, 'invalid_type'],
    ['a message without its chat', { update_id: 1, message: { text: '/start' } }, 'invalid_type'],
    ['over the size limit', { update_id: 1, padding: 'x'.repeat(40_000) }, 'too_big'],
  ])('%s is 400 invalid_request', async (_name, body, code) => {
    const response = await post(body);
    expect(response?.status).toBe(400);
    expect((await issuesOf(response)).map((issue) => issue.code)).toContain(code);
  });

  it('the write limit is 429 with Retry-After, counted per chat, not per address (every update comes from Telegram)', async () => {
    const response = await post(update('/subscribe provider_a'), {}, { ...configured, WRITE_LIMITER: closed });
    expect(response?.status).toBe(429);
    expect(response!.headers.get('Retry-After')).toMatch(/^\d+$/);
    expect(await response!.json()).toEqual({ error: 'rate_limited' });
    const keys: string[] = [];
    const counting = {
      limit: async ({ key }: { key: string }) => {
        keys.push(key);
        return { success: true };
      },
    } as unknown as RateLimit;
    await post(
      update('/subscribe provider_a'),
      { 'CF-Connecting-IP': '203.0.113.9' },
      { ...configured, WRITE_LIMITER: counting },
    );
    expect(keys).toEqual([`telegram:${update('/start').message.chat.id}`]);
    // A command that changes nothing (/start, /status) spends nothing.
    await post(update('/start'), {}, { ...configured, WRITE_LIMITER: counting });
    expect(keys).toHaveLength(1);
  });

  it('CORS: any origin (the answer as the worker sends it, and the preflight); other methods 405', async () => {
    const response = withCommonHeaders((await post(update('/weather'), { Origin: 'https://elsewhere.example' }))!);
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe('*');
    const app = edgeApp(files, { push: configured });
    const preflight = await app.request('/telegram', {
      method: 'OPTIONS',
      headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight?.status).toBe(204);
    expect(preflight!.headers.get('Access-Control-Allow-Origin')).toBe('*');
    const get = await app.request('/telegram');
    expect(get?.status).toBe(405);
    expect(get!.headers.get('Allow')).toBe('POST, OPTIONS');
  });
});

describe('POST /telegram: the commands', () => {
  it('an update that carries no command of this bot is taken: 200 {}', async () => {
    for (const body of [
      update('hello'),
      update('/weather'),
      update('/status@OtherBot'),
      { update_id: 3, edited_message: {} },
    ]) {
      const response = await post(body);
      expect(response?.status).toBe(200);
      expect(await response!.json()).toEqual({});
    }
  });

  it('/start is answered with a sendMessage call in the sender’s language', async () => {
    const response = await post(update('/start', { id: 1, language_code: 'zh-hans' }));
    expect(response?.status).toBe(200);
    const body = (await response!.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ method: 'sendMessage', chat_id: 42, parse_mode: 'HTML' });
    expect(body['text']).toMatch(/^本机器人/);
  });

  it('/status@bot in a group is the board, from the build’s summaries', async () => {
    const response = await post({
      update_id: 4,
      message: { message_id: 1, date: 0, chat: { id: -100, type: 'group' }, text: '/status@DeparturesBot' },
    });
    const body = (await response!.json()) as { chat_id: number; text: string };
    expect(body.chat_id).toBe(-100);
    expect(
      body.text
        .split('\n')
        .slice(0, 3)
        .map((line) => line.replace(/:.*/, '')),
    ).toEqual(['<b>Provider A</b>', '<b>Provider B</b>', '<b>Provider C</b>']);
  });

  it('/subscribe needs the store: 503 telegram_unavailable with Retry-After (no D1 in-process), or without the token', async () => {
    for (const bindings of [
      configured,
      { DELIVERY_QUEUE: {} as Queue, DB: {} as D1Database, TELEGRAM_WEBHOOK_SECRET: SECRET },
    ]) {
      const response = await post(update('/subscribe provider_a'), {}, bindings);
      expect(response?.status).toBe(503);
      expect(await response!.json()).toEqual({ error: 'telegram_unavailable' });
      expect(response!.headers.get('Retry-After')).toBe('30');
    }
  });

  it('/subscribe with arguments that are no providers is answered with its usage, storing nothing', async () => {
    const body = (await (await post(update('/subscribe everything')))!.json()) as { text: string };
    expect(body.text).toMatch(/^Commands: \/subscribe &lt;providers&gt; \[kinds\]/);
  });
});
