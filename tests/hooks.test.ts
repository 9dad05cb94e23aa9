import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryLocalD1 } from '../scripts/lib/local-d1.ts';
import type { RunningServer } from '../scripts/lib/local-server.ts';
import { uniqueClientIp } from './support/client-ip.ts';
import { type HooksReceiver, startHooksReceiver } from './support/hooks-receiver.ts';
import {
  copyServedBuild,
  deliveriesSettled,
  eventually,
  MINUTE_MS,
  minuteOf,
  publishedReset,
  publishInCopy,
  runCron as runCronAt,
  runCronAhead,
  type ServedCopy,
} from './support/served-delivery.ts';
import { scaled } from '../scripts/lib/load-scaled.ts';

/**
 * Signed webhooks end to end in workerd (decisions.md, "More channels"; docs/delivery.md, "Signed webhooks"): a copy
 * of the build served with the loopback test receiver allowed (never in `npm start`), a developer's receiver on
 * loopback (tests/support/hooks-receiver.ts) that echoes the verification challenge and verifies every delivery
 * with the Standard Webhooks reference library. A reset announced now that takes effect an hour later is published
 * as a new build would, and the cron is run at the minutes the test names.
 */

let copy: ServedCopy;
let server: RunningServer;
let receiver: HooksReceiver;
let startMinute: Date;
const minutesAfterStart = (minutes: number) => new Date(startMinute.getTime() + minutes * MINUTE_MS);
const runCron = (minutes: number) => runCronAt(server, minutesAfterStart(minutes));
const EVENT_ID = 'hooks-e2e';
const secrets = new Map<string, string>();

const write = (method: 'POST' | 'DELETE', body: unknown) =>
  fetch(`${server.baseUrl}/api/hooks`, {
    method,
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': uniqueClientIp() },
    body: JSON.stringify(body),
  });
const rows = () =>
  queryLocalD1(
    copy.state,
    `SELECT address, json_extract(data, '$.secret') AS secret FROM subscribers WHERE channel = 'hooks'`,
  );
const deliveriesTo = (path: string) => receiver.deliveries.filter((delivery) => delivery.path === path);
const waitFor = (path: string, count: number) =>
  eventually(
    () => deliveriesTo(path).length >= count,
    () => `${count} deliveries to ${path}, got ${deliveriesTo(path).length}`,
  );

/** Creates a hook at `path`: the answer holds the secret; the hook is stored once the receiver echoed its challenge. */
async function create(path: string): Promise<void> {
  const response = await write('POST', {
    url: `${receiver.origin}${path}`,
    providers: ['provider_a'],
    kinds: ['reset'],
  });
  expect(response.status, await response.clone().text()).toBe(202);
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
  const body = (await response.json()) as { secret: string };
  expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  secrets.set(path, body.secret);
  receiver.expect(path, body.secret);
  await eventually(() => receiver.challenges.some((challenge) => challenge.path === path), `the challenge to ${path}`);
  await eventually(
    async () => (await rows()).some((row) => row['address'] === `${receiver.origin}${path}`),
    `${path} stored`,
  );
}

beforeAll(async () => {
  startMinute = minuteOf(new Date());
  receiver = await startHooksReceiver();
  copy = await copyServedBuild('hooks');
  server = await copy.serve();
}, scaled(240_000));

afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  await copy?.remove();
});

describe('signed webhooks, from a create to signed deliveries', () => {
  it('verifies the URL before storing it, answers the secret once, and refuses a second create', async () => {
    await create('/main');
    await create('/retried');
    expect(receiver.deliveries).toEqual([]);
    const again = await write('POST', { url: `${receiver.origin}/main`, providers: ['provider_b'] });
    expect(again.status).toBe(400);
    expect(await again.text()).not.toContain('whsec_');
  });

  it('delivers a new event and a reset taking effect once each, signed, the same webhook-id on a retry', async () => {
    // The first dispatch meets the build's history: nothing is delivered for it.
    await runCron(0);
    await server.stop();
    await publishInCopy(copy, publishedReset(EVENT_ID, minutesAfterStart(-5), minutesAfterStart(60)));
    receiver.answerNext('/retried', 503);
    server = await copy.serve();
    await runCron(1);
    await waitFor('/main', 1);
    await waitFor('/retried', 2);
    await runCron(2);
    await runCronAhead(copy, server, minutesAfterStart(60));
    await waitFor('/main', 2);
    await waitFor('/retried', 3);
    await runCron(61);
    await deliveriesSettled(copy);

    const seen = (path: string) =>
      deliveriesTo(path).map((delivery) => ({
        status: delivery.status,
        id: delivery.headers['webhook-id'],
        verified: delivery.verified.ok,
        type: delivery.verified.ok ? (delivery.verified.payload as { type: string }).type : delivery.verified.error,
      }));
    expect(seen('/main')).toEqual([
      { status: 200, id: `${EVENT_ID}/announced`, verified: true, type: 'event.published' },
      { status: 200, id: `${EVENT_ID}/effective`, verified: true, type: 'reset.effective' },
    ]);
    expect(seen('/retried')).toEqual([
      { status: 503, id: `${EVENT_ID}/announced`, verified: true, type: 'event.published' },
      { status: 200, id: `${EVENT_ID}/announced`, verified: true, type: 'event.published' },
      { status: 200, id: `${EVENT_ID}/effective`, verified: true, type: 'reset.effective' },
    ]);
    const first = deliveriesTo('/main')[0]!;
    expect(first.headers['content-type']).toBe('application/json');
    expect(first.headers['webhook-signature']).toMatch(/^v1,/);
    const payload = JSON.parse(first.body) as { timestamp: string; data: { id: string; pageUrl: string } };
    expect(payload.timestamp).toBe(minutesAfterStart(-5).toISOString());
    expect(payload.data.id).toBe(EVENT_ID);
    expect(payload.data.pageUrl).toMatch(new RegExp(`/provider_a#event-${EVENT_ID}$`));
  });

  it('deletes a hook only with its secret', async () => {
    const url = `${receiver.origin}/main`;
    const wrong = await write('DELETE', { url, secret: secrets.get('/retried') });
    expect(wrong.status).toBe(404);
    expect(await wrong.json()).toEqual({ error: 'hook_not_found' });
    expect((await write('DELETE', { url, secret: secrets.get('/main') })).status).toBe(204);
    expect((await rows()).map((row) => row['address'])).toEqual([`${receiver.origin}/retried`]);
  });
});
