import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixtureFiles } from '../../scripts/lib/built-files.ts';
import { edgeApp } from '../../scripts/lib/edge-app.ts';
import { NOW } from '../../src/core/test-events.ts';
import type { DeliveryBindings } from '../../src/server/delivery/bindings.ts';
import { hostileJsonBody } from '../../tests/support/hostile-requests.ts';
import { issuesOf } from '../../tests/support/invalid-request.ts';

/**
 * The push write path's bad bodies, in-process (no D1 here: every answer below is decided before storage; the
 * served suite stores for real). Expected answers are written from decisions.md, not from the schema.
 */

const files = fixtureFiles([], NOW);
const configured = { VAPID_PUBLIC_KEY: 'B', VAPID_PRIVATE_KEY: 'p', VAPID_SUBJECT: 'mailto:a@b.example' };
const app = (push: Omit<DeliveryBindings, 'ASSETS'> = {}) => edgeApp(files, { push: { ...configured, ...push } });

/** A browser's keys: a real uncompressed P-256 point and a 16-byte secret. */
function browserKeys(): { p256dh: string; auth: string } {
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const point = publicKey.export({ format: 'der', type: 'spki' }).subarray(-65);
  return { p256dh: Buffer.from(point).toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

const goodBody = (endpoint = 'https://fcm.googleapis.com/fcm/send/abc') => ({
  subscription: { endpoint, expirationTime: null, keys: browserKeys() },
  providers: ['provider_a', 'provider_c'],
  kinds: ['reset', 'boost'],
  locale: 'zh',
});

const post = (body: unknown, init: RequestInit = {}, push: Omit<DeliveryBindings, 'ASSETS'> = {}) =>
  app(push).request('/api/push/subscriptions', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });

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
    ['a locale not offered', { locale: 'it' }, ['locale']],
    ['providers as a string', { providers: 'provider_a' }, ['providers']],
  ])('%s', async (_name, change, path) => {
    const issues = await issuesOf(await post({ ...goodBody(), ...change }));
    expect(issues.map((issue) => issue.path)).toContainEqual(path);
  });

  it.each([
    ['http', 'http://fcm.googleapis.com/x'],
    ['an IPv4 literal', 'https://192.168.1.10/x'],
    ['an IPv4 literal in another spelling', 'https://3232235786/x'],
    ['an IPv6 literal', 'https://[::1]/x'],
    ['localhost', 'https://localhost/x'],
    ['a .local name', 'https://printer.local/x'],
    ['a .internal name', 'https://metadata.google.internal/x'],
    ['a single-label name', 'https://intranet/x'],
    ['credentials', 'https://user:secret@fcm.googleapis.com/x'],
    ['not a URL', 'fcm.googleapis.com/x'],
    ['the loopback receiver while the setting is off', 'http://127.0.0.1:8787/x'],
    ['on port 22', 'https://fcm.googleapis.com:22/x'],
    ['on port 6379', 'https://fcm.googleapis.com:6379/x'],
    ['on port 0', 'https://fcm.googleapis.com:0/x'],
    ['carrying a fragment', 'https://fcm.googleapis.com/x#frag'],
    ['an IPv4 literal in hex', 'https://0x7f.1/x'],
    ['an IPv4-mapped IPv6 literal', 'https://[::ffff:127.0.0.1]/x'],
    ['localhost with a trailing dot', 'https://LOCALHOST./x'],
    ['on no known push service', 'https://push.example.net/x'],
    ['on a look-alike of FCM', 'https://fcm.googleapis.com.push.example.net/x'],
    ['on a service not on the list (the old GCM)', 'https://android.googleapis.com/gcm/send/x'],
  ])('an endpoint that is %s', async (_name, endpoint) => {
    const issues = await issuesOf(await post(goodBody(endpoint)));
    expect(issues.map((issue) => issue.path)).toContainEqual(['subscription', 'endpoint']);
  });

  it.each([
    ['the explicit port 443', 'https://fcm.googleapis.com:443/x'],
    ['an upper-case scheme and host', 'HTTPS://FCM.GOOGLEAPIS.COM/x'],
    ['a trailing dot on the host', 'https://fcm.googleapis.com./x'],
    ['no slashes after the scheme', 'https:fcm.googleapis.com/x'],
  ])('an endpoint spelled with %s passes (503 here: no database in-process)', async (_name, endpoint) => {
    expect((await post(goodBody(endpoint)))?.status).toBe(503);
  });

  it.each([
    ['Chrome, Edge, Opera, Brave', 'https://fcm.googleapis.com/fcm/send/dP3Tk:APA91bH'],
    ['Firefox', 'https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk'],
    ['Safari', 'https://web.push.apple.com/QGuQyavXutnMH'],
    ['Windows', 'https://wns2-by3p.notify.windows.com/w/?token=BQYAAAB'],
  ])('an endpoint of %s’s push service passes (503 here: no database in-process)', async (_name, endpoint) => {
    expect((await post(goodBody(endpoint)))?.status).toBe(503);
  });

  it('an endpoint on no known push service is refused with one issue that names the accepted services', async () => {
    const issues = await issuesOf(await post(goodBody('https://push.example.net/send/abc')));
    expect(issues).toEqual([
      {
        code: 'custom',
        path: ['subscription', 'endpoint'],
        message:
          'must be on a known Web Push service: fcm.googleapis.com (Chrome, Edge, Opera, Brave), ' +
          'updates.push.services.mozilla.com (Firefox), web.push.apple.com (Safari), *.notify.windows.com (Windows)',
      },
    ]);
  });

  it('the loopback receiver is let through only with ALLOW_LOOPBACK_RECEIVERS=true (or its older name), and nothing else is', async () => {
    const on = { ALLOW_LOOPBACK_RECEIVERS: 'true' };
    expect((await post(goodBody('http://127.0.0.1:8787/x'), {}, on))?.status).toBe(503);
    expect((await post(goodBody('http://localhost:8787/x'), {}, on))?.status).toBe(503);
    expect(
      (await post(goodBody('http://127.0.0.1:8787/x'), {}, { PUSH_ALLOW_LOOPBACK_RECEIVER: 'true' }))?.status,
    ).toBe(503);
    for (const endpoint of [
      'http://192.168.1.10:8787/x',
      'http://push.example.net/x',
      'https://localhost/x',
      'https://push.example.net/x',
    ])
      expect((await post(goodBody(endpoint), {}, on))?.status, endpoint).toBe(400);
    for (const off of [{ ALLOW_LOOPBACK_RECEIVERS: '1' }, { PUSH_ALLOW_LOOPBACK_RECEIVER: '1' }])
      expect((await post(goodBody('http://127.0.0.1:8787/x'), {}, off))?.status).toBe(400);
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

  /** 65 bytes: the uncompressed-point marker 0x04, then x and y as given. */
  const point = (x: number[], y: number[], marker = 0x04) => Buffer.from([marker, ...x, ...y]).toString('base64url');
  it.each([
    // (0, 0): y² = x³ − 3x + b does not hold, as b ≠ 0.
    ['the point (0, 0)', point(Array(32).fill(0), Array(32).fill(0))],
    // x = p + 1 with p = 2²⁵⁶ − 2²²⁴ + 2¹⁹² + 2⁹⁶ − 1, big-endian: no field element, whatever y.
    [
      'an x beyond the field',
      point([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 1, ...Array(11).fill(0), 1, ...Array(12).fill(0)], Array(32).fill(1)),
    ],
    ['65 bytes of 0xff', point(Array(32).fill(0xff), Array(32).fill(0xff), 0xff)],
    ['a compressed-point marker on 65 bytes', point(Array(32).fill(7), Array(32).fill(9), 0x02)],
  ])('a p256dh of the right size that is no point on P-256: %s', async (_name, p256dh) => {
    const body = goodBody();
    const issues = await issuesOf(
      await post({ ...body, subscription: { ...body.subscription, keys: { ...body.subscription.keys, p256dh } } }),
    );
    expect(issues).toEqual([
      expect.objectContaining({
        path: ['subscription', 'keys', 'p256dh'],
        message: expect.stringMatching(/P-256 curve/),
      }),
    ]);
  });

  it('a point on P-256 with one bit of y flipped is refused, the point itself passes', async () => {
    const body = goodBody();
    const bytes = Buffer.from(body.subscription.keys.p256dh, 'base64url');
    bytes[64]! ^= 1;
    const flipped = { ...body.subscription.keys, p256dh: bytes.toString('base64url') };
    const issues = await issuesOf(await post({ ...body, subscription: { ...body.subscription, keys: flipped } }));
    expect(issues.map((issue) => issue.path)).toEqual([['subscription', 'keys', 'p256dh']]);
    expect((await post(body))?.status).toBe(503);
  });

  it.each([
    ['negative', -1],
    ['a fraction', 4_102_444_800_000.5],
    ['a string', '1900000000000'],
    ['an object', {}],
  ])('an expirationTime that is %s', async (_name, expirationTime) => {
    const body = goodBody();
    const issues = await issuesOf(await post({ ...body, subscription: { ...body.subscription, expirationTime } }));
    expect(issues.map((issue) => issue.path)).toEqual([['subscription', 'expirationTime']]);
  });

  it('an expirationTime in ms, null or absent passes (503 here: no database in-process)', async () => {
    const body = goodBody();
    for (const expirationTime of [0, 4_102_444_800_000, null])
      expect((await post({ ...body, subscription: { ...body.subscription, expirationTime } }))?.status).toBe(503);
    const { expirationTime: _absent, ...withoutIt } = body.subscription;
    expect((await post({ ...body, subscription: withoutIt }))?.status).toBe(503);
  });

  it('300 unknown providers in a 4 KiB body: 20 issues and one saying how many more, not a 41 KB answer', async () => {
    const providers = Array.from({ length: 300 }, (_, index) => `p${index}`);
    const text = JSON.stringify({ ...goodBody(), providers });
    expect(new TextEncoder().encode(text).length).toBeLessThanOrEqual(4096);
    const response = await post(text);
    const raw = await response!.clone().text();
    const issues = await issuesOf(response);
    expect(issues).toHaveLength(21);
    expect(issues.slice(0, 20).map((issue) => issue.path)).toEqual(
      Array.from({ length: 20 }, (_, index) => ['providers', index]),
    );
    expect(issues[20]).toEqual({
      code: 'too_many_issues',
      path: [],
      message: '280 more issues not listed: fix these and send again',
    });
    expect(raw.length).toBeLessThan(4096);
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
      fc.asyncProperty(hostileJsonBody, async (text) => {
        const response = await post(text);
        expect([400, 503]).toContain(response?.status);
      }),
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
    const at = (iso: string) => app({ WRITE_LIMITER: closed }).request('/api/push/subscriptions', init, new Date(iso));
    expect((await at('2026-05-04T18:30:50.000Z'))!.headers.get('Retry-After')).toBe('10');
    expect((await at('2026-05-04T18:31:00.000Z'))!.headers.get('Retry-After')).toBe('60');
  });

  it('the write limiter answers 429 with Retry-After, and a failing limiter lets the write through', async () => {
    const closed = { limit: async () => ({ success: false }) } as unknown as RateLimit;
    const limited = await post(goodBody(), {}, { WRITE_LIMITER: closed });
    expect(limited?.status).toBe(429);
    expect(Number(limited!.headers.get('Retry-After'))).toBeGreaterThan(0);
    const broken = { limit: async () => Promise.reject(new Error('down')) } as unknown as RateLimit;
    expect((await post(goodBody(), {}, { WRITE_LIMITER: broken }))?.status).toBe(503);
  });
});
