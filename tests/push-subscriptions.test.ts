import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { queryLocalD1 } from '../scripts/lib/local-d1.ts';
import { burstInOneWindow } from './support/rate-window.ts';
import { uniqueClientIp } from './support/client-ip.ts';
import { loadContract } from './support/openapi-contract.ts';

/**
 * The push write path in workerd with the real local D1 and Rate Limiting binding: what is stored, replaced and
 * forgotten, read back from the database itself; the per-IP write limit; the answers against the OpenAPI
 * document. The bad bodies one by one are in functions/api/push.test.ts (in-process).
 */

const baseUrl = inject('baseUrl');
const stateDir = inject('stateDir');
let contract: Awaited<ReturnType<typeof loadContract>>;
beforeAll(async () => {
  contract = await loadContract(baseUrl);
});

function browserSubscription(endpoint: string) {
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const p256dh = Buffer.from(publicKey.export({ format: 'der', type: 'spki' }).subarray(-65)).toString('base64url');
  return { endpoint, expirationTime: null, keys: { p256dh, auth: randomBytes(16).toString('base64url') } };
}

const write = (method: 'POST' | 'DELETE', body: unknown, ip = uniqueClientIp()) =>
  fetch(`${baseUrl}/api/push/subscriptions`, {
    method,
    headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': ip },
    body: JSON.stringify(body),
  });

const rowsFor = (endpoint: string) =>
  queryLocalD1(
    stateDir,
    `SELECT s.locale, json_extract(s.data, '$.p256dh') AS p256dh, substr(t.topic, 1, instr(t.topic, '/') - 1) AS provider, substr(t.topic, instr(t.topic, '/') + 1) AS kind
     FROM subscribers s LEFT JOIN subscriber_topics t ON t.subscriber_id = s.id
     WHERE s.channel = 'push' AND s.address = '${endpoint}' ORDER BY provider, kind`,
  );

describe('push subscriptions in D1', () => {
  it('subscribes (201), replaces topics, keys and language (200), and forgets (204)', async () => {
    const endpoint = `https://fcm.googleapis.com/fcm/send/${randomBytes(8).toString('hex')}`;
    const first = browserSubscription(endpoint);
    const created = await write('POST', { subscription: first, providers: ['provider_b'] });
    expect(created.status).toBe(201);
    const createdBody = await created.json();
    expect(createdBody).toEqual({ providers: ['provider_b'], kinds: ['reset'], locale: 'en' });
    contract.expectBodyMatches('/api/push/subscriptions', 201, createdBody, 'post');
    expect(await rowsFor(endpoint)).toEqual([
      { locale: 'en', p256dh: first.keys.p256dh, provider: 'provider_b', kind: 'reset' },
    ]);

    const second = browserSubscription(endpoint);
    const replaced = await write('POST', {
      subscription: second,
      providers: ['provider_a', 'provider_c'],
      kinds: ['boost', 'reset'],
      locale: 'zh',
    });
    expect(replaced.status).toBe(200);
    contract.expectBodyMatches('/api/push/subscriptions', 200, await replaced.json(), 'post');
    expect(await rowsFor(endpoint)).toEqual(
      [
        ['provider_a', 'boost'],
        ['provider_a', 'reset'],
        ['provider_c', 'boost'],
        ['provider_c', 'reset'],
      ].map(([provider, kind]) => ({ locale: 'zh', p256dh: second.keys.p256dh, provider, kind })),
    );

    const forgotten = await write('DELETE', { endpoint });
    expect(forgotten.status).toBe(204);
    expect(await rowsFor(endpoint)).toEqual([]);
    const topicsLeft = await queryLocalD1(
      stateDir,
      'SELECT COUNT(*) AS n FROM subscriber_topics WHERE subscriber_id NOT IN (SELECT id FROM subscribers)',
    );
    expect(topicsLeft).toEqual([{ n: 0 }]);
    expect((await write('DELETE', { endpoint })).status).toBe(204);
  });

  it('stores spellings of one endpoint as one row in the standard form, with its expirationTime', async () => {
    const token = randomBytes(8).toString('hex');
    const stored = `https://fcm.googleapis.com/fcm/send/${token}`;
    const first = await write('POST', {
      subscription: {
        ...browserSubscription(` HTTPS://FCM.GoogleAPIs.com.:443/fcm/send/./${token}`),
        expirationTime: 4_000_000_000_000,
      },
      providers: ['provider_a'],
    });
    expect(first.status).toBe(201);
    const second = await write('POST', {
      subscription: {
        ...browserSubscription(`https:fcm.googleapis.com/fcm/send/${token}`),
        expirationTime: 4_102_444_800_000,
      },
      providers: ['provider_a'],
    });
    expect(second.status).toBe(200);
    const rows = await queryLocalD1(
      stateDir,
      `SELECT address AS endpoint, expires_at AS expiresAt FROM subscribers WHERE channel = 'push' AND address LIKE '%${token}'`,
    );
    expect(rows).toEqual([{ endpoint: stored, expiresAt: '2100-01-01T00:00:00.000Z' }]);
    expect((await write('DELETE', { endpoint: `https://fcm.googleapis.com./fcm/send/${token}` })).status).toBe(204);
    expect(await rowsFor(stored)).toEqual([]);
  });

  it('refuses an endpoint with a fragment, another port or on no known push service, and a key that is no P-256 point, as documented', async () => {
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/x#frag',
      'https://fcm.googleapis.com:8443/fcm/send/x',
      'https://push.example.net/send/x',
    ]) {
      const response = await write('POST', { subscription: browserSubscription(endpoint), providers: ['provider_a'] });
      expect(response.status, endpoint).toBe(400);
      contract.expectBodyMatches('/api/push/subscriptions', 400, await response.json(), 'post');
    }
    const unknown = await write('POST', {
      subscription: browserSubscription('https://push.example.net/send/x'),
      providers: ['provider_a'],
    });
    expect(((await unknown.json()) as { issues: { message: string }[] }).issues).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/^must be on a known Web Push service: /) }),
    ]);
    const offCurve = browserSubscription('https://fcm.googleapis.com/fcm/send/x');
    offCurve.keys.p256dh = Buffer.from([4, ...Array(64).fill(0)]).toString('base64url');
    const response = await write('POST', { subscription: offCurve, providers: ['provider_a'] });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { issues: { path: string[] }[] };
    expect(body.issues.map((issue) => issue.path)).toEqual([['subscription', 'keys', 'p256dh']]);
  });

  it('refuses the loopback receiver in a server without the test setting (as npm start serves)', async () => {
    const response = await write('POST', {
      subscription: browserSubscription('http://127.0.0.1:9/push'),
      providers: ['provider_a'],
    });
    expect(response.status).toBe(400);
    const body = await response.json();
    contract.expectBodyMatches('/api/push/subscriptions', 400, body, 'post');
  });

  it('holds at most 10 writes a minute per IPv6 /64, bad ones included, then 429 with Retry-After', async () => {
    const { ip, statuses, limited } = await burstInOneWindow(async () => {
      const ip = uniqueClientIp();
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 12; attempt += 1)
        statuses.push((await write('DELETE', { endpoint: `https://push.example.net/${attempt}` }, ip)).status);
      return { ip, statuses, limited: await write('POST', { not: 'even valid' }, ip) };
    });
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(204));
    expect(statuses.slice(10)).toEqual([429, 429]);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0);
    contract.expectBodyMatches('/api/push/subscriptions', 429, await limited.json(), 'post');
    // Another address of the same IPv6 /64 is the same client (decisions.md: per IPv6 /64)…
    const neighbour = `${ip.slice(0, ip.lastIndexOf('::'))}:ab:cd:ef:1`;
    expect(neighbour).not.toBe(ip);
    expect((await write('DELETE', { endpoint: 'https://push.example.net/neighbour' }, neighbour)).status).toBe(429);
    // …and another /64 still writes.
    expect((await write('DELETE', { endpoint: 'https://push.example.net/other' })).status).toBe(204);
  });

  it('gives its public key as the document says, a P-256 point', async () => {
    const response = await fetch(`${baseUrl}/api/push/key`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { publicKey: string };
    contract.expectBodyMatches('/api/push/key', 200, body);
    const point = Buffer.from(body.publicKey, 'base64url');
    expect(point).toHaveLength(65);
    expect(point[0]).toBe(4);
  });
});
