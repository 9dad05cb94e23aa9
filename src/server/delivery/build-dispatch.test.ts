import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stamped } from '../../core/build-stamp.ts';
import { buildEdgeDataset } from '../../core/dataset.ts';
import type { Event } from '../../core/schemas.ts';
import { makeEvent } from '../../core/test-events.ts';
import { deliveryFixture } from '../../../tests/support/delivery-fixture.ts';
import { createSubscriberKeys, decryptPush, startPushReceiver } from '../../../tests/support/push-receiver.ts';
import { drainDeliveryQueue } from '../../../tests/support/recording-queue.ts';
import { REAL_D1 } from '../../../tests/support/state-d1.ts';
import { vapidForTest } from '../../../tests/support/test-vapid.ts';
import { buildMark, startBuildDispatch } from './build-dispatch.ts';
import type { DeliveryMessage } from './messages.ts';
import { saveSubscriber } from './subscribers.ts';
import { runDeliveryQueue, runScheduledDelivery } from './worker-handlers.ts';

/**
 * A new build's first request starts its dispatch (decisions.md, "Push that leaves at once"), against a real local
 * D1 (Miniflare's) and a push receiver on loopback. The worker's own queue handler (`runDeliveryQueue`) is handed each
 * message the recording queue kept, as the real queue would hand them; tests/push-first-request.test.ts runs the
 * same in workerd from a served build's first request.
 */

const { secrets } = vapidForTest();
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

const fixture = deliveryFixture({ receiver: startPushReceiver });
let published: Event[];

const assets = { fetch: async () => Response.json(stamped(buildEdgeDataset(published, new Date()), 'test-build')) };
/** The worker's bindings as the worker gets them, with the loopback receiver allowed. */
const workerEnv = () => ({
  ...secrets,
  ALLOW_LOOPBACK_RECEIVERS: 'true',
  ASSETS: assets,
  DB: fixture.db,
  DELIVERY_QUEUE: fixture.queued.queue as unknown as Queue,
});

beforeEach(() => {
  published = [makeEvent({ id: 'history-1', announcedAt: minutesAgo(3000) })];
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

async function subscribe(path: string) {
  const keys = createSubscriberKeys();
  const endpoint = `${fixture.receiver.origin}${path}`;
  const write = {
    channel: 'push' as const,
    key: endpoint,
    address: endpoint,
    locale: 'en',
    data: { p256dh: keys.p256dh, auth: keys.auth },
    expiresAt: null,
    topics: ['provider_a/reset'],
  };
  expect(await saveSubscriber(fixture.db, write, 10, new Date())).toBe('created');
  return { path, keys };
}

/** Hands what the queue holds to the worker's queue handler until it is empty; the messages each one retried. */
async function drainThroughWorker(): Promise<DeliveryMessage[]> {
  const retried: DeliveryMessage[] = [];
  await drainDeliveryQueue(fixture.queued, (batch) => runDeliveryQueue(batch, workerEnv()), {
    retry: (body) => retried.push(body),
  });
  return retried;
}

const buildRows = async () =>
  (
    await fixture.db
      .prepare("SELECT name FROM dispatch_state WHERE name LIKE 'build:%' ORDER BY name")
      .all<{ name: string }>()
  ).results.map(({ name }) => name);

describe("a new build's first request", REAL_D1, () => {
  it('starts one dispatch however many isolates race; the new event is pushed once, and the cron sends it no more', async () => {
    const subscriber = await subscribe('/one');
    // The first build ever meets the history: marked as sent, nothing pushed.
    const first = await Promise.all([1, 2, 3].map(() => startBuildDispatch(workerEnv(), 'build-1', new Date())));
    expect(first.sort()).toEqual(['claimed-before', 'claimed-before', 'enqueued']);
    expect(fixture.queued.sent.map(({ body }) => body)).toEqual([{ type: 'dispatch', buildId: 'build-1' }]);
    expect(await drainThroughWorker()).toEqual([]);
    expect(fixture.receiver.received).toHaveLength(0);

    // The next build carries a new event: four isolates start at once.
    published.push(makeEvent({ id: 'new-1', announcedAt: minutesAgo(1) }));
    const second = await Promise.all([1, 2, 3, 4].map(() => startBuildDispatch(workerEnv(), 'build-2', new Date())));
    expect(second.filter((outcome) => outcome === 'enqueued')).toHaveLength(1);
    expect(fixture.queued.sent.map(({ body }) => body)).toEqual([{ type: 'dispatch', buildId: 'build-2' }]);
    expect(await drainThroughWorker()).toEqual([]);
    const [push] = await fixture.receiver.waitFor(1, subscriber.path);
    expect(JSON.parse(decryptPush(push!, subscriber.keys))).toMatchObject({
      eventId: 'new-1',
      transition: 'announced',
    });

    // The minute cron afterwards finds the pair claimed and its delivery done: it enqueues nothing.
    await runScheduledDelivery(workerEnv(), new Date());
    expect(fixture.queued.sent).toHaveLength(0);
    // A later isolate of either build (or a rollback to the first) starts nothing.
    expect(await startBuildDispatch(workerEnv(), 'build-2', new Date())).toBe('claimed-before');
    expect(await startBuildDispatch(workerEnv(), 'build-1', new Date())).toBe('claimed-before');
    expect(fixture.queued.sent).toHaveLength(0);
    expect(await buildRows()).toEqual([buildMark('build-1'), buildMark('build-2')]);
    expect(fixture.receiver.received).toHaveLength(1);
  });

  it('gives the claim back when the queue refuses, so that the build’s next isolate starts it', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const refusing = { ...workerEnv(), DELIVERY_QUEUE: { send: () => Promise.reject(new Error('queue overloaded')) } };
    expect(await startBuildDispatch(refusing, 'build-3', new Date())).toBe('failed');
    expect(logged).toHaveBeenCalledTimes(1);
    expect(String(logged.mock.calls[0]![1])).toMatch(/queue overloaded/);
    expect(await buildRows()).toEqual([]);
    expect(await startBuildDispatch(workerEnv(), 'build-3', new Date())).toBe('enqueued');
    expect(await buildRows()).toEqual([buildMark('build-3')]);
  });

  it('claims nothing while delivery is off (no state database or no queue), as the cron claims nothing then', async () => {
    for (const off of [{ DB: fixture.db }, { DELIVERY_QUEUE: fixture.queued.queue }])
      expect(await startBuildDispatch(off, 'build-4', new Date())).toBe('off');
    expect(await buildRows()).toEqual([]);
    expect(fixture.queued.sent).toHaveLength(0);
  });

  it('starts the dispatch without the VAPID secrets: push is one channel of several, not the dispatcher', async () => {
    // Changed on purpose (decisions.md, "Delivery that loses nothing"): chat and WebSub need no VAPID keys.
    const withoutPush = { DB: fixture.db, DELIVERY_QUEUE: fixture.queued.queue };
    expect(await startBuildDispatch(withoutPush, 'build-6', new Date())).toBe('enqueued');
    expect(fixture.queued.sent.map(({ body }) => body)).toEqual([{ type: 'dispatch', buildId: 'build-6' }]);
  });

  it('leaves a dispatch whose data set cannot be read to the queue’s retries', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await startBuildDispatch(workerEnv(), 'build-5', new Date())).toBe('enqueued');
    const readable = assets.fetch;
    assets.fetch = async () => new Response('Not Found', { status: 404 });
    try {
      expect(await drainThroughWorker()).toEqual([{ type: 'dispatch', buildId: 'build-5' }]);
    } finally {
      assets.fetch = readable;
    }
    const claims = await fixture.db.prepare('SELECT count(*) AS n FROM notifications').first<{ n: number }>();
    expect(claims!.n).toBe(0);
  });
});
