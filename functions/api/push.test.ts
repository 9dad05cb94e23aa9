import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixtureFiles } from '../../scripts/lib/built-files.ts';
import { edgeApp } from '../../scripts/lib/edge-app.ts';
import { NOW } from '../../src/core/test-events.ts';

/**
 * The push write path's bad bodies, in-process (no D1 here: every answer below is decided before storage; the
 * served suite stores for real). Expected answers are written from decisions.md, not from the schema.
 */

const files = fixtureFiles([], NOW);
const configured = { VAPID_PUBLIC_KEY: 'B', VAPID_PRIVATE_KEY: 'p', VAPID_SUBJECT: 'mailto:a@b.example' };
const app = (push = {}) => edgeApp(files, { push: { ...configured, ...push } });

/** A browser's keys: a real uncompressed P-256 point and a 16-byte secret. */
function browserKeys(): { p256dh: string; auth: string } {
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const point = publicKey.export({ format: 'der', type: 'spki' }).subarray(-65);
  return { p256dh: Buffer.from(point).toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

const goodBody = (endpoint = 'https://push.example.net/send/abc') => ({
  subscription: { endpoint, expirationTime: null, keys: browserKeys() },
  providers: ['provider_a', 'provider_c'],
  kinds: ['reset', 'boost'],
  locale: 'zh',
});

const post = (body: unknown, init: RequestInit = {}, push = {}) =>
  app(push).request('/api/push/subscriptions', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });

async function issuesOf(response: Response | undefined): Promise<{ path: (string | number)[] }[]> {
  expect(response?.status).toBe(400);
  const body = (await response!.json()) as { error: string; issues: { path: (string | number)[] }[] };
  expect(body.error).toBe('invalid_request');
  expect(body.issues.length).toBeGreaterThan(0);
  return body.issues;
}

describe('POST /api/push/subscriptions: bad bodies', () => {
  it('a good body passes validation (503 here: no database in-process)', async () => {
    const response = await post(goodBody());
    expect(response?.status).toBe(503);
    expect(await response!.json()).toEqual({ error: 'push_unavailable' });
  });

  it.each([
    ['a provider that does not exist', { providers: ['provider_z'] }, ['providers', 0]],
    ['no provider', { providers: [] }, ['providers']],
    ['a provider twice', { providers: ['provider_a', 'provider_a'] }, ['providers']],
    ['a kind that does not exist', { kinds: ['outage'] }, ['kinds', 0]],
    ['no kind', { kinds: [] }, ['kinds']],
    ['a locale not offered', { locale: 'fr' }, ['locale']],
    ['providers as a string', { providers: 'provider_a' }, ['providers']],
  ])('%s', async (_name, change, path) => {
    const issues = await issuesOf(await post({ ...goodBody(), ...change }));
    expect(issues.map((issue) => issue.path)).toContainEqual(path);
  });

  it.each([
    ['http', 'http://push.example.net/x'],
    ['an IPv4 literal', 'https://192.168.1.10/x'],
    ['an IPv4 literal in another spelling', 'https://3232235786/x'],
    ['an IPv6 literal', 'https://[::1]/x'],
    ['localhost', 'https://localhost/x'],
    ['a .local name', 'https://printer.local/x'],
    ['a .internal name', 'https://metadata.google.internal/x'],
    ['a single-label name', 'https://intranet/x'],
    ['credentials', 'https://user:secret@push.example.net/x'],
    ['not a URL', 'push.example.net/x'],
    ['the loopback receiver while the setting is off', 'http://127.0.0.1:8787/x'],
  ])('an endpoint that is %s', async (_name, endpoint) => {
    const issues = await issuesOf(await post(goodBody(endpoint)));
    expect(issues.map((issue) => issue.path)).toContainEqual(['subscription', 'endpoint']);
  });

  it('the loopback receiver is let through only with PUSH_ALLOW_LOOPBACK_RECEIVER=true, and nothing else is', async () => {
    const on = { PUSH_ALLOW_LOOPBACK_RECEIVER: 'true' };
    expect((await post(goodBody('http://127.0.0.1:8787/x'), {}, on))?.status).toBe(503);
    expect((await post(goodBody('http://localhost:8787/x'), {}, on))?.status).toBe(503);
    for (const endpoint of ['http://192.168.1.10:8787/x', 'http://push.example.net/x', 'https://localhost/x'])
      expect((await post(goodBody(endpoint), {}, on))?.status, endpoint).toBe(400);
    expect((await post(goodBody('http://127.0.0.1:8787/x'), {}, { PUSH_ALLOW_LOOPBACK_RECEIVER: '1' }))?.status).toBe(
      400,
    );
  });

  it.each([
    ['p256dh of 64 bytes', { p256dh: randomBytes(64).toString('base64url') }, 'p256dh'],
    ['p256dh of 66 bytes', { p256dh: randomBytes(66).toString('base64url') }, 'p256dh'],
    ['p256dh that is not base64url', { p256dh: '!'.repeat(87) }, 'p256dh'],
    ['auth of 15 bytes', { auth: randomBytes(15).toString('base64url') }, 'auth'],
    ['auth of 32 bytes', { auth: randomBytes(32).toString('base64url') }, 'auth'],
  ])('keys of the wrong size: %s', async (_name, keys, field) => {
    const body = goodBody();
    const issues = await issuesOf(
      await post({ ...body, subscription: { ...body.subscription, keys: { ...body.subscription.keys, ...keys } } }),
    );
    expect(issues.map((issue) => issue.path)).toContainEqual(['subscription', 'keys', field]);
  });

  it('a body over 4 KiB, however well formed', async () => {
    const body = { ...goodBody(), padding: 'x'.repeat(4096) };
    await issuesOf(await post(body));
  });

  it.each([
    ['not JSON', '{"subscription":'],
    ['an array', '[]'],
    ['a string', '"subscribe me"'],
    ['null', 'null'],
    ['empty', ''],
  ])('JSON that is not an object: %s', async (_name, text) => {
    await issuesOf(await post(text));
  });

  it('the wrong Content-Type is 415 with the decided body', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonx']) {
      const response = await post(goodBody(), { headers: { 'Content-Type': type } });
      expect(response?.status, type).toBe(415);
      expect(((await response!.json()) as { error: string }).error).toBe('invalid_request');
    }
    expect((await post(goodBody(), { headers: { 'Content-Type': 'application/json; charset=utf-8' } }))?.status).toBe(
      503,
    );
  });

  it('never answers a 5xx but the decided 503 to anything a client may send', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.json(),
          fc.string(),
          fc.jsonValue().map((value) => JSON.stringify(value)),
        ),
        async (text) => {
          const response = await post(text);
          expect([400, 503]).toContain(response?.status);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('DELETE /api/push/subscriptions and the key', () => {
  it('a DELETE body must name an endpoint', async () => {
    const del = (body: string) =>
      app().request('/api/push/subscriptions', {
        method: 'DELETE',
        headers: { 'Content-Type': 'application/json' },
        body,
      });
    expect((await del('{}'))?.status).toBe(400);
    expect((await del('{"endpoint":7}'))?.status).toBe(400);
    expect((await del('{"endpoint":"https://push.example.net/x"}'))?.status).toBe(503);
  });

  it('without the VAPID secrets push is unavailable, not broken', async () => {
    const response = await edgeApp(files).request('/api/push/key');
    expect(response?.status).toBe(503);
    expect(await response!.json()).toEqual({ error: 'push_unavailable' });
    const withKey = await app({ VAPID_PUBLIC_KEY: 'BPublic' }).request('/api/push/key');
    expect(await withKey!.json()).toEqual({ publicKey: 'BPublic' });
  });

  it('the write limiter’s Retry-After is the seconds left in the minute at the clock handed to the edge', async () => {
    const closed = { limit: async () => ({ success: false }) } as unknown as RateLimit;
    const init = {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(goodBody()),
    };
    const at = (iso: string) =>
      app({ PUSH_WRITE_LIMITER: closed }).request('/api/push/subscriptions', init, new Date(iso));
    expect((await at('2026-05-04T18:30:50.000Z'))!.headers.get('Retry-After')).toBe('10');
    expect((await at('2026-05-04T18:31:00.000Z'))!.headers.get('Retry-After')).toBe('60');
  });

  it('the write limiter answers 429 with Retry-After, and a failing limiter lets the write through', async () => {
    const closed = { limit: async () => ({ success: false }) } as unknown as RateLimit;
    const limited = await post(goodBody(), {}, { PUSH_WRITE_LIMITER: closed });
    expect(limited?.status).toBe(429);
    expect(Number(limited!.headers.get('Retry-After'))).toBeGreaterThan(0);
    const broken = { limit: async () => Promise.reject(new Error('down')) } as unknown as RateLimit;
    expect((await post(goodBody(), {}, { PUSH_WRITE_LIMITER: broken }))?.status).toBe(503);
  });
});
