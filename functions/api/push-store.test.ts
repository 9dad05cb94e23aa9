import { describe, expect, it } from 'vitest';
import { assetsBinding, fixtureFiles } from '../../scripts/lib/built-files.ts';
import { edgeApp } from '../../scripts/lib/edge-app.ts';
import { makeEvent, NOW } from '../../src/core/test-events.ts';
import { withCommonHeaders } from '../../src/server/http/cors.ts';
import { BASE_URL } from '../../src/server/base-url.ts';
import { deliver } from '../../src/server/delivery/deliver.ts';
import { fanOut } from '../../src/server/delivery/fan-out.ts';
import { createSubscriberKeys } from '../../tests/support/push-receiver.ts';
import { recordingQueue } from '../../tests/support/recording-queue.ts';
import { REAL_D1, startStateDatabase, stateDatabaseForFile } from '../../tests/support/state-d1.ts';
import { vapidForTest } from '../../tests/support/test-vapid.ts';

/**
 * The push write path in-process over a real local D1 (Miniflare's, as `wrangler dev` runs it): what the outbound-
 * address policy makes of an endpoint's spellings, what is kept of `expirationTime`, and the answer when D1 fails.
 * Expected rows and statuses are written by hand from decisions.md.
 */

const { secrets } = vapidForTest();
const files = fixtureFiles([], NOW);

const database = stateDatabaseForFile();

/** The worker's bindings over `db`: the VAPID secrets and a queue the write path never sends to. */
const appOver = (db: D1Database) =>
  edgeApp(files, { push: { ...secrets, DB: db, DELIVERY_QUEUE: recordingQueue().queue as unknown as Queue } });

const write = (db: D1Database, method: 'POST' | 'DELETE', body: unknown) =>
  appOver(db).request('/api/push/subscriptions', {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

const subscribeBody = (endpoint: string, expirationTime: number | null = null) => {
  const { p256dh, auth } = createSubscriberKeys();
  return { subscription: { endpoint, expirationTime, keys: { p256dh, auth } }, providers: ['provider_a'] };
};

/** The push subscribers as stored (migrations/0001_state.sql): the endpoint is both what makes one and where pushes go. */
const storedRows = async () =>
  (
    await database.db
      .prepare(
        "SELECT key AS endpoint, address, expires_at AS expiresAt FROM subscribers WHERE channel = 'push' ORDER BY id",
      )
      .all<{ endpoint: string; address: string; expiresAt: string | null }>()
  ).results;
const stored = (endpoint: string, expiresAt: string | null = null) => ({ endpoint, address: endpoint, expiresAt });

const STORED = 'https://fcm.googleapis.com/fcm/send/abc';

describe('one endpoint, many spellings: one subscription', REAL_D1, () => {
  // Written first on purpose: an odd spelling is stored in the standard form too, not only matched against it.
  const SPELLINGS = [
    ['an upper-case scheme', 'HTTPS://fcm.googleapis.com/fcm/send/abc'],
    ['the standard form', STORED],
    ['an upper-case host', 'https://FCM.GoogleAPIs.COM/fcm/send/abc'],
    ['surrounding spaces', '  https://fcm.googleapis.com/fcm/send/abc  '],
    ['the explicit port 443', 'https://fcm.googleapis.com:443/fcm/send/abc'],
    ['no slashes after the scheme', 'https:fcm.googleapis.com/fcm/send/abc'],
    ['a trailing dot on the host', 'https://fcm.googleapis.com./fcm/send/abc'],
    ['a dot segment in the path', 'https://fcm.googleapis.com/fcm/send/./abc'],
  ] as const;

  it('stores the first spelling in the standard form (201), and every other spelling replaces it (200)', async () => {
    const statuses: [string, number | undefined][] = [];
    for (const [name, endpoint] of SPELLINGS)
      statuses.push([name, (await write(database.db, 'POST', subscribeBody(endpoint)))?.status]);
    expect(statuses).toEqual([
      ['an upper-case scheme', 201],
      ['the standard form', 200],
      ['an upper-case host', 200],
      ['surrounding spaces', 200],
      ['the explicit port 443', 200],
      ['no slashes after the scheme', 200],
      ['a trailing dot on the host', 200],
      ['a dot segment in the path', 200],
    ]);
    expect(await storedRows()).toEqual([stored(STORED)]);
  });

  it('refuses the spelling with a fragment, saying so, and stores nothing', async () => {
    const response = await write(database.db, 'POST', subscribeBody(`${STORED}#frag`));
    expect(response?.status).toBe(400);
    const body = (await response!.json()) as { error: string; issues: { path: string[]; message: string }[] };
    expect(body.error).toBe('invalid_request');
    expect(body.issues).toHaveLength(1);
    expect(body.issues[0]!.path).toEqual(['subscription', 'endpoint']);
    expect(body.issues[0]!.message).toMatch(/fragment/);
    expect(await storedRows()).toEqual([]);
  });

  it('sends one push to the subscription the spellings made, at its standard form', async () => {
    for (const [, endpoint] of SPELLINGS) await write(database.db, 'POST', subscribeBody(endpoint));
    const queued = recordingQueue();
    const env = {
      ...secrets,
      ASSETS: assetsBinding(files),
      DB: database.db,
      DELIVERY_QUEUE: queued.queue as unknown as Queue,
    };
    const event = makeEvent({ id: 'one-push', announcedAt: NOW.toISOString() });
    // The dispatch's claim of the pair, held by the fan-out message below (src/server/delivery/dispatch.ts).
    await database.db
      .prepare(
        `INSERT INTO notifications (event_id, transition, provider, kind, found_at, event, lease, lease_until)
         VALUES ('one-push', 'announced', 'provider_a', 'reset', ?1, ?2, 'fan-out', ?3)`,
      )
      .bind(NOW.toISOString(), JSON.stringify(event), new Date(NOW.getTime() + 60_000).toISOString())
      .run();
    await fanOut(env, { type: 'fanout', event, transition: 'announced', lease: 'fan-out', at: NOW.toISOString() }, NOW);
    const sentTo: string[] = [];
    const fetcher = async (input: RequestInfo | URL) => {
      sentTo.push(String(input));
      return new Response(null, { status: 201 });
    };
    const settings = { rules: { allowLoopbackReceiver: false }, baseUrl: BASE_URL, fetcher: fetcher as typeof fetch };
    for (const { body } of queued.take()) if (body.type === 'deliver') await deliver(env, body, settings, NOW);
    expect(sentTo).toEqual([STORED]);
  });

  it('forgets the subscription whichever spelling the DELETE names', async () => {
    await write(database.db, 'POST', subscribeBody(STORED));
    const response = await write(database.db, 'DELETE', {
      endpoint: ' https://FCM.googleapis.com.:443/fcm/send/./abc',
    });
    expect(response?.status).toBe(204);
    expect(await storedRows()).toEqual([]);
  });
});

describe('expirationTime', REAL_D1, () => {
  it('is stored as the browser gave it, and replaced with the rest of the subscription', async () => {
    // Kept as the moment it names (ms since the epoch, as PushSubscription gives it): 4102444800 s is 2100-01-01.
    expect((await write(database.db, 'POST', subscribeBody(STORED, 4_102_444_800_000)))?.status).toBe(201);
    expect(await storedRows()).toEqual([stored(STORED, '2100-01-01T00:00:00.000Z')]);
    expect((await write(database.db, 'POST', subscribeBody(STORED, null)))?.status).toBe(200);
    expect(await storedRows()).toEqual([stored(STORED)]);
    const { expirationTime: _absent, ...withoutExpiration } = subscribeBody(STORED, 5).subscription;
    const body = { subscription: withoutExpiration, providers: ['provider_b'] };
    expect((await write(database.db, 'POST', body))?.status).toBe(200);
    expect(await storedRows()).toEqual([stored(STORED)]);
  });
});

describe('D1 unavailable', REAL_D1, () => {
  /** What D1 does when its database is locked or overloaded: the statement's promise rejects. */
  const lockedD1 = (): D1Database => {
    const failing = () => Promise.reject(new Error('D1_ERROR: database is locked: SQLITE_BUSY'));
    const statement = { bind: () => statement, first: failing, run: failing, all: failing, raw: failing };
    return { prepare: () => statement, batch: failing, exec: failing } as unknown as D1Database;
  };

  async function expectUnavailable(response: Response | undefined): Promise<void> {
    expect(response?.status).toBe(503);
    // As the worker sends it: the common headers are added to every response on its way out (functions/worker.ts).
    const sent = withCommonHeaders(response!);
    expect(await sent.json()).toEqual({ error: 'push_unavailable' });
    expect(sent.headers.get('Retry-After')).toMatch(/^[1-9][0-9]*$/);
    expect(sent.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(sent.headers.get('Access-Control-Expose-Headers')).toContain('Retry-After');
    expect(sent.headers.get('Cache-Control')).toBe('no-store');
  }

  it('a locked database: subscribing and forgetting answer 503 push_unavailable with Retry-After', async () => {
    await expectUnavailable(await write(lockedD1(), 'POST', subscribeBody(STORED)));
    await expectUnavailable(await write(lockedD1(), 'DELETE', { endpoint: STORED }));
  });

  it('a database without its tables (deleted, or never migrated): the same 503', async () => {
    const broken = await startStateDatabase();
    try {
      await broken.db.batch(
        ['deliveries', 'subscriber_topics', 'subscribers'].map((table) => broken.db.prepare(`DROP TABLE ${table}`)),
      );
      await expectUnavailable(await write(broken.db, 'POST', subscribeBody(STORED)));
      await expectUnavailable(await write(broken.db, 'DELETE', { endpoint: STORED }));
    } finally {
      await broken.dispose();
    }
  });

  it('a bad body is still a 400 while the database is down: the body is judged first', async () => {
    const response = await write(lockedD1(), 'POST', { subscription: {}, providers: [] });
    expect(response?.status).toBe(400);
  });
});
