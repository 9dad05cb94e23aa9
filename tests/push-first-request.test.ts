import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryLocalD1 } from '../scripts/lib/local-d1.ts';
import type { RunningServer } from '../scripts/lib/local-server.ts';
import { giveNewBuildId } from '../scripts/lib/new-build-id.ts';
import type { EdgeDataset } from '../src/core/dataset.ts';
import type { Event } from '../src/core/schemas.ts';
import { uniqueClientIp } from './support/client-ip.ts';
import {
  createSubscriberKeys,
  decryptPush,
  startPushReceiver,
  verifyVapid,
  type PushReceiver,
  type SubscriberKeys,
} from './support/push-receiver.ts';
import { copyServedBuild, eventually, publishInCopy, type ServedCopy } from './support/served-delivery.ts';

/**
 * A push that leaves at once (decisions.md, "Push that leaves at once"), in workerd as `npm start` serves a build,
 * with the loopback receiver allowed for this file only. A copy of the build is served and subscribed to; its first
 * request starts its dispatch, which meets the history. Then the copy becomes a new build carrying a new reset (a
 * new build id: scripts/lib/new-build-id.ts) and is served again on the same state, as a deploy does. Its first
 * request (the server's readiness request: every path runs the worker first) is the only trigger: no cron run,
 * and the push reaches the receiver. The cron run afterwards finds the reset claimed and sends nothing again.
 */

let copy: ServedCopy;
let server: RunningServer;
let receiver: PushReceiver;
let publicKey: string;
let subscriber: { path: string; keys: SubscriberKeys };
let firstBuildId: string;

const buildIdOf = async () =>
  (
    JSON.parse(await readFile(copy.dataFile, 'utf8')) as EdgeDataset & {
      stamp: { buildId: string };
    }
  ).stamp.buildId;
const rows = (sql: string) => queryLocalD1(copy.state, sql);
const stateNames = async () =>
  (await rows('SELECT name FROM dispatch_state ORDER BY name')).map((row) => String(row['name']));

const newReset = (): Event => ({
  id: 'first-request-reset',
  provider: 'provider_a',
  kind: 'reset',
  scope: 'global',
  announcedAt: new Date(Date.now() - 60_000).toISOString(),
  effectiveAt: null,
  sourceUrl: 'https://posts.provider-a.example/first-request-reset',
  sourceAccount: 'provider_a_team',
  summary: 'Limits reset for everyone, pushed at the first request.',
  audience: [],
  verified: true,
});

beforeAll(async () => {
  receiver = await startPushReceiver();
  copy = await copyServedBuild('first-request');
  firstBuildId = await buildIdOf();

  server = await copy.serve();
  publicKey = ((await (await fetch(`${server.baseUrl}/api/push/key`)).json()) as { publicKey: string }).publicKey;
  const keys = createSubscriberKeys();
  const response = await fetch(`${server.baseUrl}/api/push/subscriptions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': uniqueClientIp() },
    body: JSON.stringify({
      subscription: { endpoint: `${receiver.origin}/browser`, keys: { p256dh: keys.p256dh, auth: keys.auth } },
      providers: ['provider_a'],
      kinds: ['reset'],
      locale: 'en',
    }),
  });
  expect(response.status).toBe(201);
  subscriber = { path: '/browser', keys };
  // This build's first request started its dispatch, which met the history (the first dispatch ever).
  await eventually(async () => (await stateNames()).includes('first_dispatch'), 'the first build dispatched');
  await server.stop();

  await publishInCopy(copy, newReset());
  await giveNewBuildId(copy.dir);
}, 240_000);

afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  await copy?.remove();
});

describe('a new build’s first request', () => {
  it('pushes the new build’s event at once, without a cron run, and the cron afterwards sends it no more', async () => {
    expect(receiver.received).toHaveLength(0);
    server = await copy.serve(); // its readiness request is the new build's first request
    const [push] = await receiver.waitFor(1, subscriber.path);
    expect(JSON.parse(decryptPush(push!, subscriber.keys))).toMatchObject({
      eventId: 'first-request-reset',
      transition: 'announced',
      body: 'Limits reset for everyone, pushed at the first request.',
    });
    expect(push!.headers.urgency).toBe('high');
    await verifyVapid(push!, publicKey, receiver.origin.replace('http:', 'https:'));
    const newBuildId = await buildIdOf();
    expect(newBuildId).not.toBe(firstBuildId);
    expect(await stateNames()).toEqual([`build:${firstBuildId}`, `build:${newBuildId}`, 'first_dispatch']);
    const claimed = () => rows("SELECT found_at, suppressed FROM notifications WHERE event_id = 'first-request-reset'");
    const [claim] = await claimed();
    expect(claim).toMatchObject({ suppressed: 0 });

    // The safety net runs now: it finds the reset claimed, and the ledger holds its one delivery.
    const cron = await fetch(`${server.baseUrl}/cdn-cgi/handler/scheduled?cron=*+*+*+*+*`);
    expect(cron.status).toBe(200);
    expect(await claimed()).toEqual([claim]);
    // Nothing claimed, nothing fanned out; the receiver, after a pause for what the queue could still bring, agrees.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(receiver.received.filter((item) => item.path === subscriber.path)).toHaveLength(1);
    const ledger = await rows("SELECT count(*) AS n FROM deliveries WHERE event_id = 'first-request-reset'");
    expect(ledger).toEqual([{ n: 1 }]);
  });
});
