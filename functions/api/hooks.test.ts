import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { fixtureFiles } from '../../scripts/lib/built-files.ts';
import { edgeApp } from '../../scripts/lib/edge-app.ts';
import { NOW } from '../../src/core/test-events.ts';
import type { Event } from '../../src/core/schemas.ts';
import type { DeliveryBindings } from '../../src/server/delivery/bindings.ts';
import { hooksChannel } from '../../src/server/delivery/channels/hooks/index.ts';
import type { DeliveryMessage } from '../../src/server/delivery/messages.ts';
import { recordingQueue } from '../../tests/support/recording-queue.ts';
import { REAL_D1, stateDatabaseForFile } from '../../tests/support/state-d1.ts';

/**
 * `POST` and `DELETE /api/hooks` in-process over a real local D1 (decisions.md, "More channels"): the answers, what
 * is queued, the verification step the queue's consumer runs (its GET answered here), and the sender's reading of
 * each answer. The served suite (tests/hooks.test.ts) does it all over HTTP. Signatures are checked with the
 * Standard Webhooks reference library.
 */

const files = fixtureFiles([], NOW);
const database = stateDatabaseForFile();
const ORIGIN = 'http://localhost:4321';
const URL_ = 'https://hooks.example.com/in';

type Bindings = Omit<DeliveryBindings, 'ASSETS'>;
const app = (bindings: Bindings = {}) =>
  edgeApp(files, {
    push: { DB: database.db, DELIVERY_QUEUE: recordingQueue().queue as unknown as Queue, ...bindings },
  });
const send = (method: 'POST' | 'DELETE', body: unknown, bindings: Bindings = {}, contentType = 'application/json') =>
  app(bindings).request(
    '/api/hooks',
    { method, headers: { 'Content-Type': contentType }, body: typeof body === 'string' ? body : JSON.stringify(body) },
    NOW,
  );
const stored = async () =>
  (await database.db.prepare(`SELECT address, data FROM subscribers WHERE channel = 'hooks'`).all()).results;
const issuesOf = async (response: Response | undefined) => {
  expect(response?.status).toBe(400);
  const body = (await response!.json()) as { error: string; issues: { path: unknown[] }[] };
  expect(body.error).toBe('invalid_request');
  return body.issues.map((issue) => issue.path.join('.'));
};

/** Creates a hook as the served path does: the POST, then the queued verification, its challenge echoed. */
async function create(url = URL_): Promise<string> {
  const recording = recordingQueue<DeliveryMessage>();
  const response = await send(
    'POST',
    { url, providers: ['provider_a'] },
    { DELIVERY_QUEUE: recording.queue as unknown as Queue },
  );
  expect(response?.status).toBe(202);
  const { secret } = (await response!.json()) as { secret: string };
  const message = recording.sent[0]!.body as { request: unknown };
  const echo = (async (input: RequestInfo | URL) =>
    new Response(new URL(String(input)).searchParams.get('hub.challenge'))) as typeof fetch;
  const rules = { allowLoopbackReceiver: false };
  expect(
    await hooksChannel.verify!(message.request, { env: { DB: database.db } as never, rules, now: NOW, fetcher: echo }),
  ).toBe(true);
  return secret;
}

describe('POST /api/hooks', REAL_D1, () => {
  it('answers 202 with the secret once, queues the verification, and stores nothing yet', async () => {
    const recording = recordingQueue<DeliveryMessage>();
    const response = await send(
      'POST',
      { url: 'HTTPS://Hooks.Example.COM:443/in', providers: ['provider_a', 'provider_b'], kinds: ['reset', 'tease'] },
      { DELIVERY_QUEUE: recording.queue as unknown as Queue },
    );
    expect(response?.status).toBe(202);
    const body = (await response!.json()) as Record<string, unknown>;
    expect(body).toEqual({
      url: URL_,
      providers: ['provider_a', 'provider_b'],
      kinds: ['reset', 'tease'],
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(recording.sent.map((message) => message.body)).toEqual([
      {
        type: 'verify',
        channel: 'hooks',
        request: {
          url: URL_,
          topic: `${ORIGIN}/api/hooks`,
          providers: ['provider_a', 'provider_b'],
          kinds: ['reset', 'tease'],
          secret: body['secret'],
        },
        at: NOW.toISOString(),
      },
    ]);
    expect(await stored()).toEqual([]);
  });

  it('stores the hook only once its URL echoed the challenge, and refuses a second POST of it', async () => {
    const recording = recordingQueue<DeliveryMessage>();
    await send('POST', { url: URL_, providers: ['provider_a'] }, { DELIVERY_QUEUE: recording.queue as never });
    const request = (recording.sent[0]!.body as { request: unknown }).request;
    const rules = { allowLoopbackReceiver: false };
    const silent = (async () => new Response('not the challenge')) as typeof fetch;
    expect(
      await hooksChannel.verify!(request, { env: { DB: database.db } as never, rules, now: NOW, fetcher: silent }),
    ).toBe(false);
    expect(await stored()).toEqual([]);
    const secret = await create();
    expect(await stored()).toEqual([{ address: URL_, data: JSON.stringify({ secret }) }]);
    expect(await issuesOf(await send('POST', { url: URL_, providers: ['provider_b'] }))).toEqual(['url']);
  });

  it.each([
    ['not JSON', '{', ['']],
    ['an array', '[]', ['']],
    ['no providers', { url: URL_ }, ['providers']],
    [
      'an unknown provider and kind',
      { url: URL_, providers: ['nobody'], kinds: ['rumour'] },
      ['providers.0', 'kinds.0'],
    ],
    ['http', { url: 'http://hooks.example.com/in', providers: ['provider_a'] }, ['url']],
    ['an IP literal', { url: 'https://203.0.113.9/in', providers: ['provider_a'] }, ['url']],
    ['loopback', { url: 'http://127.0.0.1:8080/in', providers: ['provider_a'] }, ['url']],
    ['a private name', { url: 'https://nas.lan/in', providers: ['provider_a'] }, ['url']],
  ])('refuses %s with 400 invalid_request', async (_, body, paths) => {
    expect(await issuesOf(await send('POST', body))).toEqual(paths);
  });

  it('takes a loopback receiver only under the test switch', async () => {
    const body = { url: 'http://127.0.0.1:8080/in', providers: ['provider_a'] };
    expect((await send('POST', body, { ALLOW_LOOPBACK_RECEIVERS: 'true' }))?.status).toBe(202);
  });

  it('answers 415 for another media type and 400 past the size limit', async () => {
    const response = await send('POST', { url: URL_, providers: ['provider_a'] }, {}, 'text/plain');
    expect(response?.status).toBe(415);
    expect(await response!.json()).toMatchObject({ error: 'invalid_request' });
    const big = { url: URL_, providers: ['provider_a'], padding: 'x'.repeat(5000) };
    expect(await issuesOf(await send('POST', big))).toEqual(['']);
  });

  it('is 503 without the state database', async () => {
    const response = await edgeApp(files, { push: {} }).request(
      '/api/hooks',
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ url: URL_, providers: ['provider_a'] }),
      },
      NOW,
    );
    expect(response?.status).toBe(503);
  });
});

describe('DELETE /api/hooks', REAL_D1, () => {
  it('needs the secret: a wrong one and an unknown URL are the same 404; the right one is 204', async () => {
    const secret = await create();
    // One character of the key changed, in the middle, where each carries six bits of it (the last one before the
    // padding carries only four: an "A" there was the same key one time in sixteen).
    const wrong = `${secret.slice(0, 10)}${secret[10] === 'A' ? 'B' : 'A'}${secret.slice(11)}`;
    const notFound = await send('DELETE', { url: URL_, secret: wrong });
    expect(notFound?.status).toBe(404);
    expect(await notFound!.json()).toEqual({ error: 'hook_not_found' });
    expect((await send('DELETE', { url: 'https://other.example/in', secret }))?.status).toBe(404);
    expect(await stored()).toHaveLength(1);
    expect((await send('DELETE', { url: 'HTTPS://hooks.example.com/in', secret }))?.status).toBe(204);
    expect(await stored()).toEqual([]);
  });

  it('refuses a body without the secret', async () => {
    expect(await issuesOf(await send('DELETE', { url: URL_ }))).toEqual(['secret']);
  });
});

describe('the sender', () => {
  const event: Event = {
    id: 'hook-sender',
    provider: 'provider_a',
    kind: 'reset',
    scope: 'global',
    announcedAt: '2026-11-20T10:00:00Z',
    effectiveAt: null,
    sourceUrl: 'https://posts.provider-a.example/hook-sender',
    sourceAccount: 'provider_a_team',
    summary: 'Limits reset.',
    audience: [],
    verified: true,
  };
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const answering = (response: () => Response) => {
    const seen: Request[] = [];
    const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
      seen.push(new Request(input, init));
      return response();
    }) as typeof fetch;
    return { seen, fetcher };
  };
  const sendWith = async (fetcher: typeof fetch) => {
    const sender = await hooksChannel.sender(
      { event, transition: 'announced', id: 'hook-sender/announced' },
      {
        env: {} as never,
        baseUrl: 'https://board.example',
        rules: { allowLoopbackReceiver: false },
        now: NOW,
        fetcher,
      },
    );
    return sender({ id: 1, address: URL_, locale: null, data: JSON.stringify({ secret }) });
  };

  it('POSTs the payload signed as the reference library verifies, and reads 2xx as sent', async () => {
    const { seen, fetcher } = answering(() => new Response(null, { status: 204 }));
    expect(await sendWith(fetcher)).toEqual({ kind: 'sent' });
    const request = seen[0]!;
    const body = await request.text();
    const headers = Object.fromEntries(request.headers);
    expect(headers['content-type']).toBe('application/json');
    expect(headers['webhook-id']).toBe('hook-sender/announced');
    expect(new Webhook(secret).verify(body, headers)).toEqual({
      type: 'event.published',
      timestamp: '2026-11-20T10:00:00.000Z',
      data: { ...event, pageUrl: 'https://board.example/provider_a#event-hook-sender' },
    });
  });

  it.each([
    [410, {}, { kind: 'gone' }],
    [429, { 'Retry-After': '7' }, { kind: 'retry', retryAfterSeconds: 7 }],
    [503, {}, { kind: 'retry' }],
    [404, {}, { kind: 'retry' }],
  ])('reads %i', async (status, headers, outcome) => {
    const { fetcher } = answering(() => new Response(null, { status, headers }));
    expect(await sendWith(fetcher)).toMatchObject(outcome);
  });

  it('retries when nothing answers', async () => {
    const fetcher = (async () => {
      throw new TypeError('fetch failed');
    }) as typeof fetch;
    expect(await sendWith(fetcher)).toMatchObject({ kind: 'retry', reason: 'no answer' });
  });
});
