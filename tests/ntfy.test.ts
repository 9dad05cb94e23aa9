import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryLocalD1 } from '../scripts/lib/local-d1.ts';
import type { RunningServer } from '../scripts/lib/local-server.ts';
import { uniqueClientIp } from './support/client-ip.ts';
import { type NtfyReceived, type NtfyReceiver, startNtfyReceiver } from './support/ntfy-receiver.ts';
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
 * ntfy end to end in workerd, as tests/chat-webhooks.test.ts does chat: a copy of the build served with the loopback
 * receiver allowed, an ntfy server on loopback (tests/support/ntfy-receiver.ts). A topic subscribed over HTTP gets
 * its activation message and nothing else (an event published meanwhile is fanned out to nobody) until the link is
 * opened and its button pressed; then a new reset and a reset taking effect later are each published to it once, as
 * ntfy documents JSON publishing, with words and links written out here by hand.
 */

let copy: ServedCopy;
let server: RunningServer;
let receiver: NtfyReceiver;
let startMinute: Date;
const minutesAfterStart = (minutes: number) => new Date(startMinute.getTime() + minutes * MINUTE_MS);
const reset = (id: string, effectiveAt: Date | null) => publishedReset(id, minutesAfterStart(-5), effectiveAt);
const runCron = (at: Date) => runCronAt(server, at);

const TOPIC_NAME = 'departures-e2e';
let topicUrl: string;
let effectiveAt: Date;

const write = (method: 'POST' | 'DELETE', body: unknown) =>
  fetch(`${server.baseUrl}/api/ntfy`, {
    method,
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': uniqueClientIp() },
    body: JSON.stringify(body),
  });

const toTopic = () => receiver.received.filter((message) => message.body?.topic === TOPIC_NAME);
/** The activation link, on this server (the link names the site's own address). */
const activationPath = (message: NtfyReceived) => {
  const link = new URL(message.body!.click!);
  return `${link.pathname}${link.search}`;
};

/** Until the fan-out of `eventId`'s announcement is done (it reached every subscriber it was going to). */
const fannedOut = async (eventId: string) =>
  (
    await queryLocalD1(
      copy.state,
      `SELECT fanout_done FROM notifications WHERE event_id = '${eventId}' AND transition = 'announced'`,
    )
  )[0]?.['fanout_done'] === 1;

async function republish(...events: Parameters<typeof publishInCopy>[1][]): Promise<void> {
  await server.stop();
  await publishInCopy(copy, ...events);
  server = await copy.serve();
}

beforeAll(async () => {
  startMinute = minuteOf(new Date());
  effectiveAt = minutesAfterStart(60);
  receiver = await startNtfyReceiver();
  copy = await copyServedBuild('ntfy');
  server = await copy.serve();
  topicUrl = `${receiver.origin}/${TOPIC_NAME}`;
  // The first dispatch meets the fixture's history: nothing of it is sent.
  await runCron(startMinute);
}, scaled(240_000));

afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  await copy?.remove();
});

describe('ntfy, from a subscription to a topic', () => {
  it(
    'sends one activation message, nothing else until activated, then each event once',
    async () => {
      const response = await write('POST', { topic: topicUrl, providers: ['provider_a'], kinds: ['reset'] });
      expect(response.status, await response.clone().text()).toBe(201);
      expect(await response.json()).toEqual({
        providers: ['provider_a'],
        kinds: ['reset'],
        locale: 'en',
        activated: false,
      });

      // Exactly one message: the activation link, before the answer.
      expect(toTopic()).toHaveLength(1);
      const [activation] = toTopic();
      expect(activation!.path).toBe('/');
      expect(activation!.headers['content-type']).toBe('application/json');
      const link = activation!.body!.click!;
      expect(activation!.body).toEqual({
        topic: TOPIC_NAME,
        title: 'Activate Departures Board notifications',
        message: `Someone asked to send Departures Board announcements to this topic. What will be sent: each new announcement of Provider A (Reset). Nothing is sent until this link is opened and confirmed: ${link}`,
        tags: ['bell'],
        priority: 3,
        click: link,
        actions: [{ action: 'view', label: 'Activate', url: link }],
      });
      expect(link).toMatch(
        /\/api\/ntfy\/activate\?topic=http%3A%2F%2F127\.0\.0\.1%3A\d+%2Fdepartures-e2e&token=[\w-]{43}$/,
      );

      // An event published before the activation: fanned out to nobody.
      await republish(reset('e2e-early', null));
      await runCron(minutesAfterStart(1));
      await eventually(() => fannedOut('e2e-early'), 'the fan-out of e2e-early');
      await deliveriesSettled(copy);
      expect(toTopic()).toHaveLength(1);

      // The link's page: GET shows what will be sent and a button, and activates nothing (link previews fetch it).
      const path = activationPath(activation!);
      const page = await fetch(`${server.baseUrl}${path}`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await page.text();
      expect(html).toContain('What will be sent: each new announcement of Provider A (Reset).');
      expect(html).toContain('<button type="submit">Activate</button>');
      // Its validator, as the OpenAPI document says of every GET answered 200.
      const etag = page.headers.get('etag');
      expect(etag).not.toBeNull();
      expect((await fetch(`${server.baseUrl}${path}`, { headers: { 'If-None-Match': etag! } })).status).toBe(304);
      const topicRows = () =>
        queryLocalD1(
          copy.state,
          "SELECT COUNT(*) AS n FROM subscriber_topics t JOIN subscribers s ON s.id = t.subscriber_id WHERE s.channel = 'ntfy'",
        );
      expect((await topicRows())[0]?.['n']).toBe(0);
      // A wrong token activates nothing either.
      const wrong = await fetch(`${server.baseUrl}${path.replace(/token=[\w-]+/, `token=${'x'.repeat(43)}`)}`, {
        method: 'POST',
      });
      expect(wrong.status).toBe(404);
      expect((await topicRows())[0]?.['n']).toBe(0);

      // The button: a form POST to the same address.
      const confirmed = await fetch(`${server.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: '',
      });
      expect(confirmed.status).toBe(200);
      expect(await confirmed.text()).toContain('Activated: new announcements will be sent to this topic.');
      expect((await topicRows())[0]?.['n']).toBe(1);

      // A new reset, and one announced now that takes effect in an hour: each transition sent once.
      await republish(reset('e2e-now', null), reset('e2e-later', effectiveAt));
      await runCron(minutesAfterStart(2));
      await eventually(
        () => toTopic().length >= 3,
        () => `${toTopic().length - 1} of 2 announcements`,
      );
      await runCronAhead(copy, server, minutesAfterStart(61));
      await eventually(
        () => toTopic().length >= 4,
        () => `${toTopic().length - 1} of 3 messages`,
      );
      await runCron(minutesAfterStart(62));
      await deliveriesSettled(copy);

      const events = toTopic().slice(1);
      for (const message of events) {
        expect(message.headers['content-type']).toBe('application/json');
        expect(message.body, JSON.stringify(message.body)).toBeDefined();
      }
      const scheduledFor = `${effectiveAt.toISOString().slice(0, 10)} ${effectiveAt.toISOString().slice(11, 16)} UTC`;
      const base = new URL(link).origin;
      const sorted = events
        .map((message) => ({ id: message.headers['idempotency-key'], ...message.body }))
        .sort((a, b) => String(a.id).localeCompare(String(b.id)));
      expect(sorted).toEqual([
        {
          id: 'e2e-later/announced',
          topic: TOPIC_NAME,
          title: 'Provider A: Reset scheduled',
          message: `Scheduled for ${scheduledFor}. Limits reset for everyone (e2e-later).`,
          tags: ['arrows_counterclockwise', 'provider_a', 'reset'],
          priority: 4,
          click: `${base}/provider_a#event-e2e-later`,
        },
        {
          id: 'e2e-later/effective',
          topic: TOPIC_NAME,
          title: 'Provider A: Reset now',
          message: `In effect since ${scheduledFor}. Limits reset for everyone (e2e-later).`,
          tags: ['arrows_counterclockwise', 'provider_a', 'reset'],
          priority: 4,
          click: `${base}/provider_a#event-e2e-later`,
        },
        {
          id: 'e2e-now/announced',
          topic: TOPIC_NAME,
          title: 'Provider A: Reset',
          message: 'Limits reset for everyone (e2e-now).',
          tags: ['arrows_counterclockwise', 'provider_a', 'reset'],
          priority: 4,
          click: `${base}/provider_a#event-e2e-now`,
        },
      ]);

      // DELETE ends it: 204, and the row is gone.
      expect((await write('DELETE', { topic: topicUrl })).status).toBe(204);
      expect(await queryLocalD1(copy.state, "SELECT id FROM subscribers WHERE channel = 'ntfy'")).toEqual([]);
    },
    scaled(180_000),
  );
});
