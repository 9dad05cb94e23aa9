import { beforeEach, describe, expect, it } from 'vitest';
import { stamped } from '../../core/build-stamp.ts';
import { buildEdgeDataset } from '../../core/dataset.ts';
import { pushPayload } from '../../core/push/payload.ts';
import type { Event } from '../../core/schemas.ts';
import { makeEvent, NOW } from '../../core/test-events.ts';
import type { EventKind, Locale, Provider } from '../../core/vocabulary.ts';
import { deliveryFixture } from '../../../tests/support/delivery-fixture.ts';
import { minutesFrom } from '../../../tests/support/minutes-from.ts';
import { REAL_D1 } from '../../../tests/support/push-d1.ts';
import {
  createSubscriberKeys,
  decryptPush,
  startPushReceiver,
  verifyVapid,
  type SubscriberKeys,
} from '../../../tests/support/push-receiver.ts';
import { drainPushQueue } from '../../../tests/support/recording-queue.ts';
import { vapidForTest } from '../../../tests/support/test-vapid.ts';
import { BASE_URL } from '../base-url.ts';
import { consumePushBatch, deliver, fanOut } from './consumer.ts';
import { FAILING_LIMIT_MS } from '../delivery/policy.ts';
import { pruneLedger } from '../delivery/ledger.ts';
import { dispatchDue } from './dispatch.ts';
import type { DeliverMessage } from './messages.ts';
import { saveSubscription } from './subscriptions-store.ts';

/**
 * Dispatch and delivery against a real local D1 (Miniflare) and a real push receiver on loopback; the queue is
 * a recorder the test hands to the consumer (tests/push-dispatch.test.ts runs the real queue in workerd).
 */

const { keys: vapid } = vapidForTest();

const fixture = deliveryFixture({ receiver: startPushReceiver });
let published: Event[];

const assets = {
  fetch: async () => Response.json(stamped(buildEdgeDataset(published, NOW), 'test-build')),
};
const dispatchEnv = () => ({ ASSETS: assets, PUSH_DB: fixture.db, PUSH_QUEUE: fixture.queued.queue });
const consumerEnv = () => ({ PUSH_DB: fixture.db, PUSH_QUEUE: fixture.queued.queue });
const settings = () => ({ vapid, allowLoopbackReceiver: true });

beforeEach(() => {
  published = [makeEvent({ id: 'old-1', announcedAt: minutesFrom(-3000).toISOString() })];
});

let sequence = 0;
async function subscribe(
  providers: Provider[],
  kinds: EventKind[] = ['reset'],
  locale: Locale = 'en',
  expirationTime: number | null = null,
): Promise<{ path: string; keys: SubscriberKeys; id: number }> {
  sequence += 1;
  const path = `/push/${sequence}`;
  const keys = createSubscriberKeys();
  await saveSubscription(
    fixture.db,
    {
      subscription: {
        endpoint: `${fixture.receiver.origin}${path}`,
        expirationTime,
        keys: { p256dh: keys.p256dh, auth: keys.auth },
      },
      providers,
      kinds,
      locale,
    },
    NOW,
  );
  const row = await fixture.db
    .prepare('SELECT id FROM subscriptions WHERE endpoint = ?1')
    .bind(`${fixture.receiver.origin}${path}`)
    .first<{ id: number }>();
  return { path, keys, id: row!.id };
}

/** Hands every recorded message to the consumer, and what they enqueue in turn, until the queue is empty. */
const drainQueue = (now = NOW) =>
  drainPushQueue(fixture.queued, (batch) => consumePushBatch(batch, consumerEnv(), settings(), () => now), { at: now });

const deliverMessage = (event: Event, ids: number[], attempt = 1): DeliverMessage => ({
  type: 'deliver',
  event,
  transition: 'announced',
  subscriptionIds: ids,
  attempt,
});

describe('the cron dispatch', REAL_D1, () => {
  it('marks the history present at the first dispatch as sent, and sends a later event once', async () => {
    const subscriber = await subscribe(['provider_a']);
    expect(await dispatchDue(dispatchEnv(), NOW)).toMatchObject({ enqueued: 0, suppressed: 1 });
    await drainQueue();
    expect(fixture.receiver.received).toHaveLength(0);

    published.push(makeEvent({ id: 'new-1', announcedAt: minutesFrom(-1).toISOString() }));
    expect(await dispatchDue(dispatchEnv(), NOW)).toMatchObject({ enqueued: 1, suppressed: 0 });
    expect(await dispatchDue(dispatchEnv(), minutesFrom(1))).toMatchObject({ enqueued: 0, suppressed: 0 });
    await drainQueue();
    const pushes = await fixture.receiver.waitFor(1, subscriber.path);
    expect(JSON.parse(decryptPush(pushes[0]!, subscriber.keys))).toMatchObject({ eventId: 'new-1' });
    expect(fixture.receiver.received).toHaveLength(1);
  });

  it('after a first dispatch with nothing due, the first event is sent, not taken for history', async () => {
    published = [];
    const subscriber = await subscribe(['provider_a']);
    await dispatchDue(dispatchEnv(), NOW);
    published.push(makeEvent({ id: 'first-ever', announcedAt: minutesFrom(-1).toISOString() }));
    expect(await dispatchDue(dispatchEnv(), NOW)).toMatchObject({ enqueued: 1 });
    await drainQueue();
    await fixture.receiver.waitFor(1, subscriber.path);
  });

  it('fans a new event out once when two dispatches overlap', async () => {
    await dispatchDue(dispatchEnv(), NOW);
    published.push(makeEvent({ id: 'raced', announcedAt: minutesFrom(-1).toISOString() }));
    const results = await Promise.all([1, 2, 3].map(() => dispatchDue(dispatchEnv(), NOW)));
    expect(results.reduce((sum, result) => sum + result.enqueued, 0)).toBe(1);
    // One claim: push's fan-out and the chat webhooks' (src/server/webhooks), once.
    expect(fixture.queued.sent.map(({ body }) => body.type)).toEqual(['fanout', 'chat-fanout']);
  });

  it('sends a scheduled reset when announced and again when it takes effect, never a draft or a future event', async () => {
    const subscriber = await subscribe(['provider_a']);
    await dispatchDue(dispatchEnv(), NOW);
    published.push(
      makeEvent({ id: 'pending', announcedAt: NOW.toISOString(), effectiveAt: minutesFrom(30).toISOString() }),
      makeEvent({ id: 'draft', announcedAt: NOW.toISOString(), verified: false }),
      makeEvent({ id: 'future', announcedAt: minutesFrom(5).toISOString() }),
    );
    await dispatchDue(dispatchEnv(), NOW);
    await dispatchDue(dispatchEnv(), minutesFrom(30));
    await drainQueue();
    const pushes = await fixture.receiver.waitFor(2, subscriber.path);
    const payloads = pushes.map((push) => JSON.parse(decryptPush(push, subscriber.keys)));
    expect(payloads.map((payload) => `${payload.eventId}/${payload.transition}`).sort()).toEqual([
      'pending/announced',
      'pending/effective',
    ]);
  });
});

describe('the ledger', REAL_D1, () => {
  it('keeps 15 days of delivery rows and deletes older ones, a bounded slice per cron run', async () => {
    const { id } = await subscribe(['provider_a']);
    const day = 86_400_000;
    const insert = fixture.db.prepare(
      'INSERT INTO deliveries (subscription_id, event_id, transition, sent_at) VALUES (?1, ?2, ?3, ?4)',
    );
    // 16 days old (to go), exactly 14 days old and 1 hour old (to stay).
    const rows = [
      ...Array.from({ length: 5 }, (_, index) => [`old-${index}`, NOW.getTime() - 16 * day]),
      ['two-weeks', NOW.getTime() - 14 * day],
      ['recent', NOW.getTime() - 3_600_000],
    ] as const;
    await fixture.db.batch(rows.map(([event, at]) => insert.bind(id, event, 'announced', new Date(at).toISOString())));
    const left = async () =>
      (
        await fixture.db.prepare('SELECT event_id FROM deliveries ORDER BY event_id').all<{ event_id: string }>()
      ).results.map((row) => row.event_id);
    expect(await pruneLedger(fixture.db, 'push', NOW, 3)).toBe(3);
    expect((await left()).filter((event) => event.startsWith('old-'))).toHaveLength(2);
    // The cron's own run prunes too.
    await dispatchDue(dispatchEnv(), NOW);
    expect(await left()).toEqual(['recent', 'two-weeks']);
  });
});

describe('fan-out and delivery', REAL_D1, () => {
  it('reaches every matching subscription once through pages of the queue, and no other', async () => {
    const matching = [] as { id: number }[];
    for (let index = 0; index < 12; index += 1) matching.push(await subscribe(['provider_b'], ['boost', 'reset']));
    const other = await subscribe(['provider_b'], ['promo']);
    const otherProvider = await subscribe(['provider_a'], ['boost']);
    const event = makeEvent({ id: 'b-boost', provider: 'provider_b', kind: 'boost', announcedAt: NOW.toISOString() });
    await fanOut(consumerEnv(), { type: 'fanout', event, transition: 'announced', afterId: 0 });
    const messages = fixture.queued.sent.map(({ body }) => body);
    expect(messages.every((body) => body.type === 'deliver')).toBe(true);
    expect(messages.flatMap((body) => (body.type === 'deliver' ? body.subscriptionIds : []))).toEqual(
      matching.map(({ id }) => id),
    );
    await drainQueue();
    expect(fixture.receiver.received).toHaveLength(12);
    expect(fixture.receiver.received.some(({ path }) => path === other.path || path === otherProvider.path)).toBe(
      false,
    );
  });

  it('pages a topic of more than one page of subscriptions through further fan-out messages', async () => {
    await fixture.db
      .prepare(
        `WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 12003)
         INSERT INTO subscriptions (endpoint, p256dh, auth, locale, created_at)
         SELECT 'https://push.example/' || i, 'k', 'a', 'en', ?1 FROM n`,
      )
      .bind(NOW.toISOString())
      .run();
    await fixture.db
      .prepare(`INSERT INTO subscription_topics SELECT 'provider_c', 'reset', id FROM subscriptions`)
      .run();
    const event = makeEvent({ id: 'c-reset', provider: 'provider_c', announcedAt: NOW.toISOString() });
    const reached: number[] = [];
    let fanouts = 0;
    fixture.queued.sent.push({
      body: { type: 'fanout', event, transition: 'announced', afterId: 0 },
      delaySeconds: undefined,
    });
    for (let next = fixture.queued.take(); next.length > 0; next = fixture.queued.take())
      for (const { body } of next) {
        if (body.type === 'fanout') {
          fanouts += 1;
          await fanOut(consumerEnv(), body);
        } else if (body.type === 'deliver') reached.push(...body.subscriptionIds);
      }
    expect(fanouts).toBe(3);
    expect(reached).toHaveLength(12003);
    expect(new Set(reached).size).toBe(12003);
  });

  it('delivers a push that an independent RFC 8291 implementation decrypts, with a VAPID JWT jose verifies', async () => {
    const english = await subscribe(['provider_a'], ['reset'], 'en');
    const chinese = await subscribe(['provider_a'], ['reset'], 'zh');
    const event = makeEvent({ id: 'a-reset', announcedAt: NOW.toISOString(), summary: 'All limits reset.' });
    await deliver(consumerEnv(), deliverMessage(event, [english.id, chinese.id]), settings(), NOW);
    for (const [subscriber, locale] of [
      [english, 'en'],
      [chinese, 'zh'],
    ] as const) {
      const [push] = await fixture.receiver.waitFor(1, subscriber.path);
      expect(push!.headers['ttl']).toBe('86400');
      expect(push!.headers['urgency']).toBe('high');
      const claims = await verifyVapid(push!, vapid.publicKey, fixture.receiver.origin.replace('http:', 'https:'));
      expect(claims.sub).toBe('mailto:test@departures-board.invalid');
      const payload = JSON.parse(decryptPush(push!, subscriber.keys));
      expect(payload).toStrictEqual({
        title: locale === 'en' ? 'Provider A: Reset' : '供应商 A：重置',
        body: 'All limits reset.',
        url: `${BASE_URL}/provider_a#event-a-reset`,
        tag: 'provider_a-reset',
        eventId: 'a-reset',
        provider: 'provider_a',
        kind: 'reset',
        transition: 'announced',
      });
      expect(payload).toStrictEqual(pushPayload(event, 'announced', locale, BASE_URL));
    }
  });

  it('sends urgency normal for what is not a reset', async () => {
    const subscriber = await subscribe(['provider_a'], ['promo']);
    const event = makeEvent({ id: 'a-promo', kind: 'promo', announcedAt: NOW.toISOString() });
    await deliver(consumerEnv(), deliverMessage(event, [subscriber.id]), settings(), NOW);
    const [push] = await fixture.receiver.waitFor(1, subscriber.path);
    expect(push!.headers['urgency']).toBe('normal');
  });

  it('sends once when the same message is delivered again (the ledger)', async () => {
    const subscriber = await subscribe(['provider_a']);
    const event = makeEvent({ id: 'twice', announcedAt: NOW.toISOString() });
    await deliver(consumerEnv(), deliverMessage(event, [subscriber.id]), settings(), NOW);
    await Promise.all(
      [1, 2].map(() => deliver(consumerEnv(), deliverMessage(event, [subscriber.id]), settings(), NOW)),
    );
    await fixture.receiver.waitFor(1, subscriber.path);
    expect(fixture.receiver.received).toHaveLength(1);
  });

  it('deletes a subscription whose push service answers 404 or 410, and still delivers to the others', async () => {
    const gone = await subscribe(['provider_a']);
    const notFound = await subscribe(['provider_a']);
    const fine = await subscribe(['provider_a']);
    fixture.receiver.answerNext(gone.path, { status: 410 });
    fixture.receiver.answerNext(notFound.path, { status: 404 });
    const event = makeEvent({ id: 'gone', announcedAt: NOW.toISOString() });
    await deliver(consumerEnv(), deliverMessage(event, [gone.id, notFound.id, fine.id]), settings(), NOW);
    const ids = (await fixture.db.prepare('SELECT id FROM subscriptions ORDER BY id').all<{ id: number }>()).results;
    expect(ids.map(({ id }) => id)).toEqual([fine.id]);
    const topics = await fixture.db.prepare('SELECT count(*) AS n FROM subscription_topics').first<{ n: number }>();
    expect(topics!.n).toBe(1);
    expect(fixture.queued.sent).toHaveLength(0);
  });

  it('retries a 429 after its Retry-After and a 5xx or no answer with backoff, only those, until delivered', async () => {
    const limited = await subscribe(['provider_a']);
    const failing = await subscribe(['provider_a']);
    const fine = await subscribe(['provider_a']);
    fixture.receiver.answerNext(limited.path, { status: 429, headers: { 'retry-after': '7' } });
    fixture.receiver.answerNext(failing.path, { status: 503 });
    const event = makeEvent({ id: 'retried', announcedAt: NOW.toISOString() });
    await deliver(consumerEnv(), deliverMessage(event, [limited.id, failing.id, fine.id]), settings(), NOW);
    expect(fixture.queued.sent).toEqual([
      { body: deliverMessage(event, [limited.id, failing.id], 2), delaySeconds: 7 },
    ]);
    const failingRows = await fixture.db
      .prepare('SELECT id, failing_since FROM subscriptions WHERE failing_since IS NOT NULL ORDER BY id')
      .all<{ id: number; failing_since: string }>();
    expect(failingRows.results).toEqual([
      { id: limited.id, failing_since: NOW.toISOString() },
      { id: failing.id, failing_since: NOW.toISOString() },
    ]);
    fixture.receiver.answerNext(failing.path, { status: 500 });
    const retry = fixture.queued.take()[0]!.body as DeliverMessage;
    await deliver(consumerEnv(), retry, settings(), minutesFrom(1));
    expect(fixture.queued.sent).toEqual([{ body: deliverMessage(event, [failing.id], 3), delaySeconds: 60 }]);
    await deliver(consumerEnv(), fixture.queued.take()[0]!.body as DeliverMessage, settings(), minutesFrom(2));
    expect(fixture.queued.sent).toHaveLength(0);
    expect((await fixture.receiver.waitFor(2, limited.path)).map((push) => push.path)).toHaveLength(2);
    expect(await fixture.receiver.waitFor(3, failing.path)).toHaveLength(3);
    expect(await fixture.receiver.waitFor(1, fine.path)).toHaveLength(1);
    const still = await fixture.db
      .prepare('SELECT count(*) AS n FROM subscriptions WHERE failing_since IS NOT NULL')
      .first<{ n: number }>();
    expect(still!.n).toBe(0);
  });

  it('retries when the push service cannot be reached, without holding up the others', async () => {
    const unreachable = await subscribe(['provider_a']);
    const fine = await subscribe(['provider_a']);
    await fixture.db
      .prepare('UPDATE subscriptions SET endpoint = ?2 WHERE id = ?1')
      .bind(unreachable.id, 'http://127.0.0.1:9/push/unreachable')
      .run();
    const event = makeEvent({ id: 'unreachable', announcedAt: NOW.toISOString() });
    await deliver(consumerEnv(), deliverMessage(event, [unreachable.id, fine.id]), settings(), NOW);
    expect(fixture.queued.sent).toEqual([{ body: deliverMessage(event, [unreachable.id], 2), delaySeconds: 30 }]);
    await fixture.receiver.waitFor(1, fine.path);
  });

  it('drops a subscription that has been failing for 7 days', async () => {
    const failingLong = await subscribe(['provider_a']);
    const failingShort = await subscribe(['provider_a']);
    await fixture.db
      .prepare('UPDATE subscriptions SET failing_since = ?2 WHERE id = ?1')
      .bind(failingLong.id, new Date(NOW.getTime() - FAILING_LIMIT_MS).toISOString())
      .run();
    await fixture.db
      .prepare('UPDATE subscriptions SET failing_since = ?2 WHERE id = ?1')
      .bind(failingShort.id, new Date(NOW.getTime() - FAILING_LIMIT_MS + 60_000).toISOString())
      .run();
    fixture.receiver.answerNext(failingLong.path, { status: 503 });
    fixture.receiver.answerNext(failingShort.path, { status: 400 });
    const event = makeEvent({ id: 'dropped', announcedAt: NOW.toISOString() });
    await deliver(consumerEnv(), deliverMessage(event, [failingLong.id, failingShort.id]), settings(), NOW);
    const ids = (await fixture.db.prepare('SELECT id FROM subscriptions').all<{ id: number }>()).results.map(
      ({ id }) => id,
    );
    expect(ids).toEqual([failingShort.id]);
    expect(fixture.queued.sent).toHaveLength(0);
  });

  it('never sends to a subscription past its expirationTime, and deletes it as for a 410', async () => {
    const expired = await subscribe(['provider_a'], ['reset'], 'en', NOW.getTime() - 1);
    const endsNow = await subscribe(['provider_a'], ['reset'], 'en', NOW.getTime());
    const endsLater = await subscribe(['provider_a'], ['reset'], 'en', NOW.getTime() + 1);
    const noEnd = await subscribe(['provider_a']);
    const event = makeEvent({ id: 'expiry', announcedAt: NOW.toISOString() });
    const ids = [expired.id, endsNow.id, endsLater.id, noEnd.id];
    await deliver(consumerEnv(), deliverMessage(event, ids), settings(), NOW);
    await fixture.receiver.waitFor(1, endsLater.path);
    await fixture.receiver.waitFor(1, noEnd.path);
    expect(fixture.receiver.received.map(({ path }) => path).sort()).toEqual([endsLater.path, noEnd.path].sort());
    const left = (await fixture.db.prepare('SELECT id FROM subscriptions ORDER BY id').all<{ id: number }>()).results;
    expect(left.map(({ id }) => id)).toEqual([endsLater.id, noEnd.id]);
    const topics = await fixture.db.prepare('SELECT count(*) AS n FROM subscription_topics').first<{ n: number }>();
    expect(topics!.n).toBe(2);
    expect(fixture.queued.sent).toHaveLength(0);
  });

  it('never sends to a loopback endpoint when the loopback receiver is off', async () => {
    const subscriber = await subscribe(['provider_a']);
    const event = makeEvent({ id: 'off', announcedAt: NOW.toISOString() });
    await deliver(consumerEnv(), deliverMessage(event, [subscriber.id]), { vapid, allowLoopbackReceiver: false }, NOW);
    expect(fixture.receiver.received).toHaveLength(0);
  });
});
