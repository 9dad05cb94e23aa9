import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixtureFiles } from '../../scripts/lib/built-files.ts';
import { edgeApp } from '../../scripts/lib/edge-app.ts';
import { NOW } from '../../src/core/test-events.ts';
import type { DeliveryBindings } from '../../src/server/delivery/bindings.ts';
import type { DeliveryMessage } from '../../src/server/delivery/messages.ts';
import { recordingQueue as recordingAnyQueue } from '../../tests/support/recording-queue.ts';

/**
 * `POST /websub` in-process (decisions.md, "WebSub"): every answer is decided before the queue's consumer runs, so a
 * recording queue stands in for it here; the served suite (tests/websub.test.ts) verifies and delivers for real.
 * The base URL outside an Astro build is the local default, http://localhost:4321.
 */

const files = fixtureFiles([], NOW);
const ORIGIN = 'http://localhost:4321';

/**
 * The state database as the hub's write path reads it (how many WebSub subscribers there are, whether this one is
 * known) answering `count` and `known`: an empty hub by default. The count itself is a real D1's in
 * functions/api/subscriber-writes.test.ts; here only what the hub does with the answer.
 */
const hubDatabase = (count = 0, known = false) => {
  const statement = { bind: () => statement, first: async () => ({ count, known: known ? 1 : 0 }) };
  return { prepare: () => statement } as unknown as D1Database;
};
/** What D1 does when its database is locked or overloaded: the statement's promise rejects. */
const lockedDatabase = () => {
  const failing = () => Promise.reject(new Error('D1_ERROR: database is locked: SQLITE_BUSY'));
  const statement = { bind: () => statement, first: failing, run: failing, all: failing, raw: failing };
  return { prepare: () => statement, batch: failing, exec: failing } as unknown as D1Database;
};

/** The delivery queue, recording what the write path sends it (`failing`: one the platform cannot reach). */
const recordingQueue = (failing = false) => {
  const recording = recordingAnyQueue<DeliveryMessage>({ failing });
  return { ...recording, queue: recording.queue as unknown as Queue };
};
/** The worker's bindings; `DB: null` leaves the database out (by default the empty hub's). */
type Bindings = Omit<DeliveryBindings, 'ASSETS' | 'DB'> & { DB?: D1Database | null };

const FORM = 'application/x-www-form-urlencoded';
const GOOD = {
  'hub.mode': 'subscribe',
  'hub.topic': `${ORIGIN}/feed.atom?provider=provider_c`,
  'hub.callback': 'https://reader.example/cb',
};

const hub = ({ DB = hubDatabase(), ...bindings }: Bindings = {}) =>
  edgeApp(files, { push: { ...bindings, ...(DB === null ? {} : { DB }) } });
const post = (body: string, bindings: Bindings = {}, contentType: string | null = FORM, now?: Date) =>
  hub(bindings).request(
    '/websub',
    { method: 'POST', headers: contentType === null ? {} : { 'Content-Type': contentType }, body },
    now,
  );
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe('POST /websub', () => {
  it('accepts a good request with 202 and no body, and hands its verification to the queue', async () => {
    const { queue, sent } = recordingQueue();
    const response = await post(
      form({ ...GOOD, 'hub.topic': 'HTTP://LocalHost:4321/feed.atom?provider=provider_c' }),
      { DELIVERY_QUEUE: queue },
      FORM,
      NOW,
    );
    expect(response?.status).toBe(202);
    expect(await response!.text()).toBe('');
    expect(response!.headers.get('Cache-Control')).toBe('no-store');
    expect(sent.map((message) => message.body)).toEqual([
      {
        type: 'verify',
        channel: 'websub',
        request: {
          mode: 'subscribe',
          topic: `${ORIGIN}/feed.atom?provider=provider_c`,
          callback: 'https://reader.example/cb',
          leaseSeconds: 864000,
          secret: null,
        },
        at: '2026-06-15T12:00:00.000Z',
      },
    ]);
  });

  it('is answered before Astro, whatever Origin the form comes with (Astro refuses a cross-site form POST)', async () => {
    const { queue } = recordingQueue();
    for (const origin of [undefined, 'https://elsewhere.example', 'null']) {
      const response = await hub({ DELIVERY_QUEUE: queue }).request('/websub', {
        method: 'POST',
        headers: { 'Content-Type': `${FORM}; charset=UTF-8`, ...(origin === undefined ? {} : { Origin: origin }) },
        body: form(GOOD),
      });
      expect(response?.status).toBe(202);
    }
  });

  it('refuses a bad form with 400 invalid_request and every issue', async () => {
    const { queue, sent } = recordingQueue();
    const response = await post('hub.mode=subscribe&hub.topic=https%3A%2F%2Fboard.example%2Ffeed.xml', {
      DELIVERY_QUEUE: queue,
    });
    expect(response?.status).toBe(400);
    const body = (await response!.json()) as { error: string; issues: { path: string[] }[] };
    expect(body.error).toBe('invalid_request');
    expect(body.issues.map((issue) => issue.path)).toEqual([['hub.topic'], ['hub.callback']]);
    expect(sent).toEqual([]);
  });

  it('refuses a body over 8 KiB with 400', async () => {
    const response = await post(`${form(GOOD)}&pad=${'x'.repeat(8192)}`, { DELIVERY_QUEUE: recordingQueue().queue });
    expect(response?.status).toBe(400);
    expect(await response!.json()).toMatchObject({ error: 'invalid_request', issues: [{ code: 'too_big' }] });
  });

  it.each([
    ['JSON', 'application/json'],
    ['multipart', 'multipart/form-data; boundary=x'],
    ['text', 'text/plain'],
    ['no Content-Type', null],
  ])('answers a body sent as %s with 415', async (_name, contentType) => {
    const response = await post(form(GOOD), { DELIVERY_QUEUE: recordingQueue().queue }, contentType);
    expect(response?.status).toBe(415);
    expect(await response!.json()).toMatchObject({
      error: 'invalid_request',
      issues: [{ code: 'unsupported_media_type' }],
    });
  });

  it.each<[string, Bindings]>([
    ['without its queue', {}],
    ['without its database', { DB: null, DELIVERY_QUEUE: recordingQueue().queue }],
    ['when its database is locked', { DB: lockedDatabase(), DELIVERY_QUEUE: recordingQueue().queue }],
    ['when the queue refuses', { DELIVERY_QUEUE: recordingQueue(true).queue }],
  ])('is 503 websub_unavailable with Retry-After %s', async (_name, bindings) => {
    const response = await post(form(GOOD), bindings);
    expect(response?.status).toBe(503);
    expect(response!.headers.get('Retry-After')).toBe('30');
    expect(await response!.json()).toEqual({ error: 'websub_unavailable' });
  });

  it('needs none of push’s secrets: 202 without the VAPID keys (changed on purpose: no channel needs another’s)', async () => {
    const { queue, sent } = recordingQueue();
    const response = await post(form(GOOD), { DELIVERY_QUEUE: queue });
    expect(response?.status).toBe(202);
    expect(sent).toHaveLength(1);
  });

  it('is 503 websub_full at the channel’s cap (SUBSCRIBER_CAPS), queueing nothing; a renewal or an unsubscribe still passes', async () => {
    const { queue, sent } = recordingQueue();
    const caps = JSON.stringify({ websub: 3 });
    const full = await post(form(GOOD), { DB: hubDatabase(3), DELIVERY_QUEUE: queue, SUBSCRIBER_CAPS: caps });
    expect(full?.status).toBe(503);
    expect(await full!.json()).toEqual({ error: 'websub_full' });
    expect(sent).toEqual([]);
    // One below the cap, a subscription already known, and an unsubscribe at the cap are each queued.
    const below = await post(form(GOOD), { DB: hubDatabase(2), DELIVERY_QUEUE: queue, SUBSCRIBER_CAPS: caps });
    expect(below?.status).toBe(202);
    const renewal = await post(form(GOOD), { DB: hubDatabase(3, true), DELIVERY_QUEUE: queue, SUBSCRIBER_CAPS: caps });
    expect(renewal?.status).toBe(202);
    const leaving = await post(form({ ...GOOD, 'hub.mode': 'unsubscribe' }), {
      DB: hubDatabase(3),
      DELIVERY_QUEUE: queue,
      SUBSCRIBER_CAPS: caps,
    });
    expect(leaving?.status).toBe(202);
    expect(sent).toHaveLength(3);
  });

  it('shares the write limit of every channel: 429 with Retry-After once the limiter refuses', async () => {
    const closed = { limit: async () => ({ success: false }) } as unknown as RateLimit;
    const response = await post(form(GOOD), { WRITE_LIMITER: closed, DELIVERY_QUEUE: recordingQueue().queue });
    expect(response?.status).toBe(429);
    expect(await response!.json()).toEqual({ error: 'rate_limited' });
    expect(Number(response!.headers.get('Retry-After'))).toBeGreaterThan(0);
  });

  it('answers other methods 405 with Allow, and OPTIONS with Allow', async () => {
    for (const method of ['GET', 'HEAD', 'DELETE', 'PUT']) {
      const response = await hub().request('/websub', { method });
      expect(response?.status, method).toBe(405);
      expect(response!.headers.get('Allow')).toBe('POST, OPTIONS');
    }
    const options = await hub().request('/websub', { method: 'OPTIONS' });
    expect(options?.status).toBe(204);
    expect(options!.headers.get('Allow')).toBe('POST, OPTIONS');
  });

  it('never answers a 5xx but the decided 503 to any form a client may send', async () => {
    const field = fc.constantFrom('hub.mode', 'hub.topic', 'hub.callback', 'hub.lease_seconds', 'hub.secret', 'x', '');
    const value = fc.oneof(
      fc.string(),
      fc.constantFrom('subscribe', 'unsubscribe', GOOD['hub.topic'], GOOD['hub.callback'], '%', '%FF', '0', '-1'),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(field, value, fc.boolean()), { maxLength: 8 }), async (pairs) => {
        const body = pairs
          .map(([key, text, encode]) => `${key}=${encode ? encodeURIComponent(text) : text.replace(/[&=]/g, '')}`)
          .join('&');
        const response = await post(body, { DELIVERY_QUEUE: recordingQueue().queue });
        expect([202, 400]).toContain(response?.status);
      }),
      { numRuns: 200 },
    );
  });
});

describe('the feeds advertise the hub in Link', () => {
  it.each([
    ['/feed.xml', `${ORIGIN}/feed.xml`],
    ['/feed.xml?provider=provider_a&utm_source=x', `${ORIGIN}/feed.xml?provider=provider_a`],
    ['/feed.atom?provider=provider_b', `${ORIGIN}/feed.atom?provider=provider_b`],
    ['/feed.json', `${ORIGIN}/feed.json`],
  ])('GET and HEAD %s', async (path, self) => {
    for (const method of ['GET', 'HEAD']) {
      const response = await edgeApp(files).request(path, { method });
      expect(response?.status).toBe(200);
      expect(response!.headers.get('Link')).toBe(`<${ORIGIN}/websub>; rel="hub", <${self}>; rel="self"`);
      expect(response!.headers.get('Access-Control-Expose-Headers')).toBe('Link');
    }
  });
});
