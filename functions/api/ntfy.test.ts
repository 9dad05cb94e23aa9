import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixtureFiles } from '../../scripts/lib/built-files.ts';
import { edgeApp } from '../../scripts/lib/edge-app.ts';
import { NOW } from '../../src/core/test-events.ts';
import type { DeliveryBindings } from '../../src/server/delivery/bindings.ts';
import { hostileJsonBody } from '../../tests/support/hostile-requests.ts';
import { issuesOf } from '../../tests/support/invalid-request.ts';

/**
 * ntfy's write path and activation page, in-process, everything decided before storage (no D1 here: a good body
 * meets the decided 503; tests/ntfy.test.ts stores, sends and activates for real). Expected answers are written from
 * decisions.md ("More channels", "Outbound addresses", push's errors), not from the schema.
 */

const files = fixtureFiles([], NOW);
type Bindings = Omit<DeliveryBindings, 'ASSETS'>;
const configured: Bindings = { DELIVERY_QUEUE: {} as Queue };
const app = (bindings: Bindings = {}) => edgeApp(files, { push: { ...configured, ...bindings } });

const TOPIC = 'https://ntfy.sh/departures-7f3a';
const goodBody = (topic = TOPIC) => ({
  topic,
  providers: ['provider_a', 'provider_c'],
  kinds: ['reset'],
  locale: 'zh',
});

const send = (method: 'POST' | 'DELETE', body: unknown, init: RequestInit = {}, bindings: Bindings = {}) =>
  app(bindings).request('/api/ntfy', {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
const post = (body: unknown, init: RequestInit = {}, bindings: Bindings = {}) => send('POST', body, init, bindings);

async function expectUnavailable(response: Response | undefined): Promise<void> {
  expect(response?.status).toBe(503);
  expect(await response!.json()).toEqual({ error: 'ntfy_unavailable' });
  expect(response!.headers.get('Retry-After')).toBe('30');
}

describe('POST /api/ntfy: which topics', () => {
  it.each([
    ['a topic on ntfy.sh', TOPIC],
    ['a topic on a server of its own', 'https://notify.example.org/alerts_1'],
    ['a topic spelled oddly', ' HTTPS://NTFY.sh.:443/departures-7f3a '],
  ])('%s passes (503 here: no database in-process)', async (_name, topic) => {
    await expectUnavailable(await post(goodBody(topic)));
  });

  it.each([
    ['the server alone', 'https://ntfy.sh/'],
    ['a path of two segments', 'https://ntfy.sh/v1/topic'],
    ['a topic with a query', 'https://ntfy.sh/topic?auth=x'],
    ['a name ntfy does not take', 'https://ntfy.sh/my~topic'],
  ])('%s is a bad body, saying what a topic URL is', async (_name, topic) => {
    expect(await issuesOf(await post(goodBody(topic)))).toEqual([
      { code: 'custom', path: ['topic'], message: expect.stringMatching(/^must be an ntfy topic URL/) },
    ]);
  });

  it.each([
    ['http', 'http://ntfy.sh/topic', /https/],
    ['another port', 'https://ntfy.sh:8443/topic', /443/],
    ['credentials', 'https://user:pw@ntfy.sh/topic', /user name or password/],
    ['a fragment', `${TOPIC}#x`, /fragment/],
    ['an IP literal', 'https://159.203.148.75/topic', /IP address/],
    ['a private name', 'https://ntfy.home.arpa/topic', /.+/],
    ['not a URL', 'ntfy.sh/topic', /absolute URL/],
  ])('an address the outbound policy refuses (%s) gets the policy’s one issue', async (_name, topic, message) => {
    expect(await issuesOf(await post(goodBody(topic)))).toEqual([
      { code: 'custom', path: ['topic'], message: expect.stringMatching(message) },
    ]);
  });

  it('a loopback server passes only with ALLOW_LOOPBACK_RECEIVERS=true', async () => {
    const on = { ALLOW_LOOPBACK_RECEIVERS: 'true' };
    await expectUnavailable(await post(goodBody('http://127.0.0.1:8787/topic'), {}, on));
    expect((await post(goodBody('http://127.0.0.1:8787/topic')))?.status).toBe(400);
    expect((await post(goodBody('http://192.168.1.10:8787/topic'), {}, on))?.status).toBe(400);
  });
});

describe('POST /api/ntfy: the rest of the body, as push', () => {
  it.each([
    ['a provider that does not exist', { providers: ['provider_z'] }, ['providers', 0]],
    ['no provider', { providers: [] }, ['providers']],
    ['a kind twice', { kinds: ['reset', 'reset'] }, ['kinds']],
    ['a locale not offered', { locale: 'it' }, ['locale']],
    ['no topic', { topic: undefined }, ['topic']],
    ['a topic that is a number', { topic: 7 }, ['topic']],
  ])('%s', async (_name, change, path) => {
    const issues = await issuesOf(await post({ ...goodBody(), ...change }));
    expect(issues.map((issue) => issue.path)).toContainEqual(path);
  });

  it('a body over 4 KiB, not JSON, or not an object', async () => {
    await issuesOf(await post({ ...goodBody(), padding: 'x'.repeat(4096) }));
    for (const text of ['{"topic":', '[]', '"t"', 'null', '']) await issuesOf(await post(text));
  });

  it('the wrong Content-Type is 415 with the decided body', async () => {
    const response = await post(goodBody(), { headers: { 'Content-Type': 'text/plain' } });
    expect(response?.status).toBe(415);
    expect(((await response!.json()) as { error: string }).error).toBe('invalid_request');
  });

  it('shares the write limit: 429 with Retry-After', async () => {
    const closed = { limit: async () => ({ success: false }) } as unknown as RateLimit;
    const response = await post(goodBody(), {}, { WRITE_LIMITER: closed });
    expect(response?.status).toBe(429);
    expect(await response!.json()).toEqual({ error: 'rate_limited' });
  });

  it('every hostile body is a 4xx or the decided 503, never a 5xx of another kind', async () => {
    await fc.assert(
      fc.asyncProperty(hostileJsonBody, async (text) => {
        expect([400, 503]).toContain((await post(text))?.status);
      }),
      { numRuns: 100 },
    );
  });
});

describe('DELETE /api/ntfy, the activation page and the routes', () => {
  it('a DELETE body must name a topic (503 here: it would be looked up)', async () => {
    expect((await send('DELETE', {}))?.status).toBe(400);
    await expectUnavailable(await send('DELETE', { topic: TOPIC }));
  });

  it('answers other methods 405 with Allow, and a CORS preflight with any origin', async () => {
    const get = await app().request('/api/ntfy');
    expect(get?.status).toBe(405);
    expect(get!.headers.get('Allow')).toBe('POST, DELETE, OPTIONS');
    const preflight = await app().request('/api/ntfy', {
      method: 'OPTIONS',
      headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight?.status).toBe(204);
    expect(preflight!.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(preflight!.headers.get('Access-Control-Allow-Methods')).toBe('POST, DELETE, OPTIONS');
  });

  it('the activation page needs its topic and a token of the right form', async () => {
    expect((await app().request('/api/ntfy/activate'))?.status).toBe(400);
    expect((await app().request(`/api/ntfy/activate?topic=${encodeURIComponent(TOPIC)}&token=short`))?.status).toBe(
      400,
    );
    const path = `/api/ntfy/activate?topic=${encodeURIComponent(TOPIC)}&token=${'a'.repeat(43)}`;
    await expectUnavailable(await app().request(path));
    await expectUnavailable(await app().request(path, { method: 'POST' }));
    expect((await app().request(path, { method: 'DELETE' }))?.status).toBe(405);
  });
});
