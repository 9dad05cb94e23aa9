import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixtureFiles } from '../../scripts/lib/built-files.ts';
import { edgeApp } from '../../scripts/lib/edge-app.ts';
import { NOW } from '../../src/core/test-events.ts';
import type { DeliveryBindings } from '../../src/server/delivery/bindings.ts';
import { hostileJsonBody } from '../../tests/support/hostile-requests.ts';
import { issuesOf } from '../../tests/support/invalid-request.ts';

/**
 * The chat webhooks' write path, in-process, everything decided before storage (no D1 here: a good body meets the
 * decided 503; functions/api/subscriber-writes.test.ts and src/server/delivery/wing-*.test.ts store for real).
 * Expected answers are written from decisions.md ("Chat webhooks", "Outbound addresses", "Delivery that loses
 * nothing", and push's errors), not from the schema.
 */

const files = fixtureFiles([], NOW);
type Bindings = Omit<DeliveryBindings, 'ASSETS'>;
/**
 * The delivery wing configured except its database: a good body passes every check and finds no store. No VAPID
 * keys: the chat webhooks need none of push's secrets (decisions.md, "Delivery that loses nothing").
 */
const configured: Bindings = { DELIVERY_QUEUE: {} as Queue };
const app = (bindings: Bindings = {}) => edgeApp(files, { push: { ...configured, ...bindings } });

const DISCORD = 'https://discord.com/api/webhooks/123456789012345678/AbC-dEf_123';
const SLACK = 'https://hooks.slack.com/services/T0001/B0002/XXXXXXXXXXXXXXXXXXXXXXXX';
const goodBody = (url = DISCORD) => ({ url, providers: ['provider_a', 'provider_c'], kinds: ['reset'], locale: 'zh' });

const send = (method: 'POST' | 'DELETE', body: unknown, init: RequestInit = {}, bindings: Bindings = {}) =>
  app(bindings).request('/api/webhooks', {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
const post = (body: unknown, init: RequestInit = {}, bindings: Bindings = {}) => send('POST', body, init, bindings);

async function expectUnavailable(response: Response | undefined): Promise<void> {
  expect(response?.status).toBe(503);
  expect(await response!.json()).toEqual({ error: 'webhooks_unavailable' });
  expect(response!.headers.get('Retry-After')).toBe('30');
}

describe('POST /api/webhooks: which URLs', () => {
  it.each([
    ['a Discord webhook', DISCORD],
    ['a Discord webhook on discordapp.com', 'https://discordapp.com/api/webhooks/1/token'],
    ['a Discord webhook with a thread', `${DISCORD}?thread_id=42`],
    ['a Slack incoming webhook', SLACK],
    ['a Discord webhook spelled oddly', ' HTTPS://Discord.COM.:443/api/webhooks/1/token '],
  ])('%s passes (503 here: no database in-process)', async (_name, url) => {
    await expectUnavailable(await post(goodBody(url)));
  });

  it.each([
    ['a Discord page that is no webhook', 'https://discord.com/channels/1/2'],
    ['a Discord webhook without its token', 'https://discord.com/api/webhooks/123'],
    ['a Discord webhook path on another host', 'https://webhooks.example/api/webhooks/1/token'],
    ['a host that only starts like Discord', 'https://discord.com.example/api/webhooks/1/token'],
    ['a Slack URL that is not an incoming webhook', 'https://hooks.slack.com/triggers/T0/1/abc'],
    ['a Slack webhook path on another host', 'https://slack.example/services/T0/B0/x'],
    ['a Slack webhook short of its secret', 'https://hooks.slack.com/services/T0/B0'],
    ['any other https URL', 'https://chat.example/hooks/abc'],
  ])('%s is a bad body, saying what a webhook URL is', async (_name, url) => {
    const issues = await issuesOf(await post(goodBody(url)));
    expect(issues).toEqual([
      { code: 'custom', path: ['url'], message: expect.stringMatching(/Discord webhook .* Slack incoming webhook/) },
    ]);
  });

  it.each([
    ['http', 'http://discord.com/api/webhooks/1/token', /https/],
    ['another port', 'https://discord.com:8443/api/webhooks/1/token', /443/],
    ['credentials', 'https://user:pw@hooks.slack.com/services/T0/B0/x', /user name or password/],
    ['a fragment', `${SLACK}#x`, /fragment/],
    ['an IP literal', 'https://162.159.128.233/api/webhooks/1/token', /IP address/],
    ['not a URL', 'discord.com/api/webhooks/1/token', /absolute URL/],
  ])('an address the outbound policy refuses (%s) gets the policy’s one issue', async (_name, url, message) => {
    const issues = await issuesOf(await post(goodBody(url)));
    expect(issues).toEqual([{ code: 'custom', path: ['url'], message: expect.stringMatching(message) }]);
  });

  it('the loopback receiver passes only with ALLOW_LOOPBACK_RECEIVERS=true (or its older name), and only at a platform’s path', async () => {
    const on = { ALLOW_LOOPBACK_RECEIVERS: 'true' };
    await expectUnavailable(await post(goodBody('http://127.0.0.1:8787/api/webhooks/1/token'), {}, on));
    await expectUnavailable(
      await post(goodBody('http://127.0.0.1:8787/api/webhooks/1/token'), {}, { PUSH_ALLOW_LOOPBACK_RECEIVER: 'true' }),
    );
    await expectUnavailable(await post(goodBody('http://localhost:8787/services/T0/B0/x'), {}, on));
    expect((await post(goodBody('http://127.0.0.1:8787/api/webhooks/1/token')))?.status).toBe(400);
    expect((await post(goodBody('http://127.0.0.1:8787/hooks/1'), {}, on))?.status).toBe(400);
    expect((await post(goodBody('http://192.168.1.10:8787/api/webhooks/1/token'), {}, on))?.status).toBe(400);
  });
});

describe('POST /api/webhooks: the rest of the body, as push', () => {
  it.each([
    ['a provider that does not exist', { providers: ['provider_z'] }, ['providers', 0]],
    ['no provider', { providers: [] }, ['providers']],
    ['a kind twice', { kinds: ['reset', 'reset'] }, ['kinds']],
    ['a locale not offered', { locale: 'it' }, ['locale']],
    ['no url', { url: undefined }, ['url']],
    ['a url that is a number', { url: 7 }, ['url']],
  ])('%s', async (_name, change, path) => {
    const issues = await issuesOf(await post({ ...goodBody(), ...change }));
    expect(issues.map((issue) => issue.path)).toContainEqual(path);
  });

  it('kinds default to resets and the locale to English (503 here: the body passed)', async () => {
    await expectUnavailable(await post({ url: SLACK, providers: ['provider_b'] }));
  });

  it('a body over 4 KiB, not JSON, or not an object', async () => {
    await issuesOf(await post({ ...goodBody(), padding: 'x'.repeat(4096) }));
    for (const text of ['{"url":', '[]', '"hook"', 'null', '']) await issuesOf(await post(text));
  });

  it('the wrong Content-Type is 415 with the decided body', async () => {
    const response = await post(goodBody(), { headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(response?.status).toBe(415);
    expect(((await response!.json()) as { error: string }).error).toBe('invalid_request');
  });

  it('shares push’s write limit: 429 with Retry-After', async () => {
    const closed = { limit: async () => ({ success: false }) } as unknown as RateLimit;
    const response = await post(goodBody(), {}, { WRITE_LIMITER: closed });
    expect(response?.status).toBe(429);
    expect(await response!.json()).toEqual({ error: 'rate_limited' });
    expect(Number(response!.headers.get('Retry-After'))).toBeGreaterThan(0);
  });

  it('without the delivery wing (its queue or its database) the webhooks are unavailable, not half-working', async () => {
    const { DELIVERY_QUEUE: _queue, ...noQueue } = configured;
    const withoutQueue = edgeApp(files, { push: { ...noQueue, DB: {} as D1Database } });
    const request = {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(goodBody()),
    };
    await expectUnavailable(await withoutQueue.request('/api/webhooks', request));
    const withoutDatabase = edgeApp(files, { push: { DELIVERY_QUEUE: {} as Queue } });
    await expectUnavailable(await withoutDatabase.request('/api/webhooks', request));
    // Changed on purpose: the VAPID secrets are push's alone, so their absence no longer turns the webhooks off
    // (a write stored without them: functions/api/subscriber-writes.test.ts).
  });

  it('never answers a 5xx but the decided 503 to anything a client may send', async () => {
    await fc.assert(
      fc.asyncProperty(hostileJsonBody, async (text) => {
        expect([400, 503]).toContain((await post(text))?.status);
      }),
      { numRuns: 200 },
    );
  });
});

describe('DELETE /api/webhooks and the route', () => {
  it('a DELETE body must name a url, any text (503 here: it would be looked up)', async () => {
    expect((await send('DELETE', {}))?.status).toBe(400);
    expect((await send('DELETE', { url: 7 }))?.status).toBe(400);
    await expectUnavailable(await send('DELETE', { url: 'not even a URL' }));
    await expectUnavailable(await send('DELETE', { url: DISCORD }));
  });

  it('answers other methods 405 with Allow, and a CORS preflight for its two methods', async () => {
    const get = await app().request('/api/webhooks');
    expect(get?.status).toBe(405);
    expect(get!.headers.get('Allow')).toBe('POST, DELETE, OPTIONS');
    const preflight = await app().request('/api/webhooks', {
      method: 'OPTIONS',
      headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight?.status).toBe(204);
    expect(preflight!.headers.get('Access-Control-Allow-Methods')).toBe('POST, DELETE, OPTIONS');
    expect(preflight!.headers.get('Access-Control-Allow-Headers')).toContain('Content-Type');
  });
});
