import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { queryLocalD1 } from '../scripts/lib/local-d1.ts';
import type { RunningServer } from '../scripts/lib/local-server.ts';
import type { Event } from '../src/core/schemas.ts';
import { uniqueClientIp } from './support/client-ip.ts';
import { burstInOneWindow } from './support/rate-window.ts';
import { loadContract } from './support/openapi-contract.ts';
import {
  copyServedBuild,
  deliveriesSettled,
  MINUTE_MS,
  minuteOf,
  publishWithFeeds,
  runCron as runCronAt,
  type ServedCopy,
} from './support/served-delivery.ts';
import {
  discover,
  parseLinkHeader,
  startWebSubSubscriber,
  type WebSubSubscriber,
} from './support/websub-subscriber.ts';
import { scaled } from '../scripts/lib/load-scaled.ts';

/**
 * WebSub end to end in workerd (decisions.md, "WebSub"): a copy of the build is served with the loopback test
 * receiver allowed (as the push test does; never in `npm start`), in a state folder of its own. The subscriber is
 * written from the W3C text (tests/support/websub-subscriber.ts): it discovers the hub and the topic from a feed's
 * Link header, subscribes with a form POST, confirms the hub's verification GET by echoing the challenge, and checks
 * each delivery's X-Hub-Signature with node:crypto.
 *
 * Then an event is published as a new build would (the copy's /data/board.json and its feed files rewritten, the
 * server restarted on the same state, as a deploy restarts), and the push cron's dispatch runs
 * (`/cdn-cgi/local/scheduled?time=`): the real local queues carry the change to the hub's consumer, which POSTs
 * the feed. The copy was built for the shared build's address (`{base_url}`), which its feeds advertise; the test
 * speaks to the copy at its own port, at the hub's path.
 */

const builtBaseUrl = inject('baseUrl');
let copy: ServedCopy;
let server: RunningServer;
let subscriber: WebSubSubscriber;
let contract: Awaited<ReturnType<typeof loadContract>>;
let startMinute: Date;
const minutesAfterStart = (minutes: number) => new Date(startMinute.getTime() + minutes * MINUTE_MS);

/** The hub as the copy serves it: the advertised hub's path at the copy's address. */
const hubOf = (advertised: string) => `${server.baseUrl}${new URL(advertised).pathname}`;
const topic = (pathAndQuery: string) => `${builtBaseUrl}${pathAndQuery}`;

const runCron = (at: Date) => runCronAt(server, at);

const storedSubscriptions = async () =>
  (
    await queryLocalD1(
      copy.state,
      `SELECT json_extract(data, '$.topic') AS topic, address AS callback, json_extract(data, '$.secret') AS secret,
              expires_at, failing_since FROM subscribers WHERE channel = 'websub'`,
    )
  ).sort((a, b) => String(a['callback']).localeCompare(String(b['callback'])));
const rowOf = async (callbackPath: string) =>
  (await storedSubscriptions()).find((row) => row['callback'] === `${subscriber.origin}${callbackPath}`);

/** Subscribes `callbackPath` to `topicUrl` and waits for the verification to be confirmed and stored. */
async function subscribe(
  topicUrl: string,
  callbackPath: string,
  options: { secret?: string; leaseSeconds?: number } = {},
): Promise<void> {
  const response = await subscriber.request(hubOf(`${builtBaseUrl}/websub`), 'subscribe', topicUrl, callbackPath, {
    ...options,
    clientIp: uniqueClientIp(),
  });
  expect(response.status, await response.clone().text()).toBe(202);
  await subscriber.waitFor(() => subscriber.active(callbackPath), `the verification of ${callbackPath}`);
  await expect.poll(() => rowOf(callbackPath)).toBeDefined();
}

const deliveriesTo = (callbackPath: string) =>
  subscriber.deliveries.filter((delivery) => delivery.path === callbackPath);
const waitForDeliveries = (callbackPath: string, count: number) =>
  subscriber.waitFor(
    () => (deliveriesTo(callbackPath).length >= count ? deliveriesTo(callbackPath) : undefined),
    `${count} deliveries to ${callbackPath}`,
  );

/** The event the test publishes: announced before the start, taking effect an hour after it. */
const published = (): Event => ({
  id: 'websub-e2e',
  provider: 'provider_a',
  kind: 'reset',
  scope: 'global',
  announcedAt: minutesAfterStart(-5).toISOString(),
  effectiveAt: minutesAfterStart(60).toISOString(),
  sourceUrl: 'https://posts.provider-a.example/websub-e2e',
  sourceAccount: 'provider_a_team',
  summary: 'Limits reset for everyone in an hour (websub-e2e).',
  audience: [],
  verified: true,
});

beforeAll(async () => {
  startMinute = minuteOf(new Date());
  subscriber = await startWebSubSubscriber();
  copy = await copyServedBuild('websub');
  server = await copy.serve();
  contract = await loadContract(server.baseUrl);
}, scaled(240_000));

afterAll(async () => {
  await server?.stop();
  await subscriber?.close();
  await copy?.remove();
});

describe('discovery (WebSub §4)', () => {
  it.each([
    ['/feed.xml', 'application/rss+xml'],
    ['/feed.xml?provider=provider_a', 'application/rss+xml'],
    ['/feed.atom', 'application/atom+xml'],
    ['/feed.atom?provider=provider_b', 'application/atom+xml'],
    ['/feed.json', 'application/feed+json'],
    ['/feed.json?provider=provider_c', 'application/feed+json'],
  ])('%s names the hub and itself in Link and in the document', async (feed, mediaType) => {
    for (const method of ['GET', 'HEAD']) {
      const response = await fetch(`${server.baseUrl}${feed}`, { method });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(`${mediaType}; charset=utf-8`);
      expect(parseLinkHeader(response.headers.get('link'))).toEqual([
        { target: `${builtBaseUrl}/websub`, rels: ['hub'] },
        { target: topic(feed), rels: ['self'] },
      ]);
      expect(response.headers.get('access-control-expose-headers')?.split(/,\s*/)).toContain('Link');
      if (method === 'HEAD') continue;
      const text = await response.text();
      if (mediaType === 'application/feed+json') {
        const document = JSON.parse(text) as { hubs: unknown; feed_url: string };
        expect(document.hubs).toEqual([{ type: 'WebSub', url: `${builtBaseUrl}/websub` }]);
        expect(document.feed_url).toBe(topic(feed));
      } else {
        const prefix = mediaType === 'application/rss+xml' ? 'atom:link' : 'link';
        expect(text).toContain(`<${prefix} href="${builtBaseUrl}/websub" rel="hub"/>`);
        expect(text).toContain(`<${prefix} href="${topic(feed)}" rel="self"`);
      }
    }
  });
});

describe('subscribing, delivering and unsubscribing, end to end', () => {
  const signed = '/cb/signed';
  const everything = '/cb/everything';
  const otherProvider = '/cb/other-provider';
  const retried = '/cb/retried';
  const leaving = '/cb/leaving';
  const uninvited = '/cb/uninvited';
  const secret = 'a secret of the subscriber’s own, 42 bytes';

  it('a server’s form POST (no Origin) is 202, and only a confirmed callback is stored', async () => {
    const discovered = await discover(`${server.baseUrl}/feed.xml?provider=provider_a`);
    expect(discovered.hubs).toEqual([`${builtBaseUrl}/websub`]);
    expect(discovered.self).toBe(topic('/feed.xml?provider=provider_a'));
    await subscribe(discovered.self, signed, { secret, leaseSeconds: 86_400 });
    await subscribe(topic('/feed.json'), everything);
    await subscribe(topic('/feed.atom?provider=provider_b'), otherProvider);
    await subscribe(topic('/feed.xml'), retried, { secret: 'another secret' });
    await subscribe(discovered.self, leaving, { secret: 'leaving' });

    // The verification GET as §5.3 has it: the callback's own path, the mode, the topic, a challenge, the lease.
    const [verification] = subscriber.verifications.filter((candidate) => candidate.path === signed);
    expect(verification).toMatchObject({
      mode: 'subscribe',
      topic: discovered.self,
      leaseSeconds: '86400',
      confirmed: true,
    });
    expect(subscriber.verifications.find((candidate) => candidate.path === everything)?.leaseSeconds).toBe('864000');

    // A request the callback did not make: the hub accepts it (202), the callback answers 404, nothing is stored.
    const form = new URLSearchParams({
      'hub.mode': 'subscribe',
      'hub.topic': topic('/feed.xml'),
      'hub.callback': `${subscriber.origin}${uninvited}`,
    });
    const response = await fetch(`${server.baseUrl}/websub`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'CF-Connecting-IP': uniqueClientIp() },
      body: form.toString(),
    });
    expect(response.status).toBe(202);
    await subscriber.waitFor(
      () => subscriber.verifications.find((candidate) => candidate.path === uninvited),
      'the uninvited verification',
    );
    expect(subscriber.verifications.find((candidate) => candidate.path === uninvited)?.confirmed).toBe(false);

    const rows = await storedSubscriptions();
    expect(
      rows.map((row) => [String(row['callback']).slice(subscriber.origin.length), row['topic'], row['secret']]),
    ).toEqual([
      [everything, topic('/feed.json'), null],
      [leaving, topic('/feed.xml?provider=provider_a'), 'leaving'],
      [otherProvider, topic('/feed.atom?provider=provider_b'), null],
      [retried, topic('/feed.xml'), 'another secret'],
      [signed, topic('/feed.xml?provider=provider_a'), secret],
    ]);
    // The lease counts from the verification, which came after the POST.
    const expiresAt = Date.parse(String((await rowOf(signed))!['expires_at']));
    expect(expiresAt).toBeGreaterThan(startMinute.getTime() + 86_400_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 86_400_000);
  });

  it('delivers a published event to the changed topics’ subscribers: the feed as served, signed, once', async () => {
    // The first dispatch meets the build's history: nothing is delivered for it.
    await runCron(startMinute);
    await server.stop();
    await publishWithFeeds(copy, published());
    subscriber.answerNext(retried, { status: 503, headers: { 'Retry-After': '1' } });
    server = await copy.serve();
    await runCron(minutesAfterStart(1));

    const [toSigned] = await waitForDeliveries(signed, 1);
    const served = await fetch(`${server.baseUrl}/feed.xml?provider=provider_a`);
    expect(toSigned!.body.equals(Buffer.from(await served.arrayBuffer()))).toBe(true);
    expect(toSigned!.body.toString()).toContain('#event-websub-e2e');
    expect(toSigned!.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(parseLinkHeader(toSigned!.headers['link'] as string)).toEqual([
      { target: `${builtBaseUrl}/websub`, rels: ['hub'] },
      { target: topic('/feed.xml?provider=provider_a'), rels: ['self'] },
    ]);
    expect(toSigned!.signature).toBe('valid');

    const [toEverything] = await waitForDeliveries(everything, 1);
    const servedJson = await (await fetch(`${server.baseUrl}/feed.json`)).arrayBuffer();
    expect(toEverything!.body.equals(Buffer.from(servedJson))).toBe(true);
    expect(toEverything!.headers['content-type']).toBe('application/feed+json; charset=utf-8');
    expect(toEverything!.signature).toBe('absent');

    // Refused once (503, Retry-After: 1), delivered on the retry.
    const toRetried = await waitForDeliveries(retried, 2);
    expect(toRetried.map((delivery) => [delivery.status, delivery.signature])).toEqual([
      [503, 'valid'],
      [200, 'valid'],
    ]);
    await waitForDeliveries(leaving, 1);

    // The next minute finds nothing new: nobody gets the change twice; the other provider's feed never changed.
    await runCron(minutesAfterStart(2));
    await deliveriesSettled(copy);
    for (const callback of [signed, everything, leaving]) expect(deliveriesTo(callback), callback).toHaveLength(1);
    expect(deliveriesTo(otherProvider)).toEqual([]);
    expect(deliveriesTo(uninvited)).toEqual([]);
  });

  it('unsubscribes once the callback confirms; the reset taking effect reaches only who stayed', async () => {
    const response = await subscriber.request(
      hubOf(`${builtBaseUrl}/websub`),
      'unsubscribe',
      topic('/feed.xml?provider=provider_a'),
      leaving,
      {
        clientIp: uniqueClientIp(),
      },
    );
    expect(response.status).toBe(202);
    await subscriber.waitFor(
      () => (subscriber.active(leaving) === undefined ? true : undefined),
      'the unsubscription’s verification',
    );
    const verification = subscriber.verifications.filter((candidate) => candidate.path === leaving).at(-1);
    expect(verification).toMatchObject({ mode: 'unsubscribe', confirmed: true, leaseSeconds: null });
    await expect.poll(() => rowOf(leaving)).toBeUndefined();

    await runCron(minutesAfterStart(60));
    await waitForDeliveries(signed, 2);
    await waitForDeliveries(everything, 2);
    expect(deliveriesTo(signed)[1]!.signature).toBe('valid');
    await deliveriesSettled(copy);
    expect(deliveriesTo(leaving)).toHaveLength(1);
  });
});

describe('bad requests, as documented', () => {
  const post = (body: string, contentType = 'application/x-www-form-urlencoded', ip = uniqueClientIp()) =>
    fetch(`${server.baseUrl}/websub`, {
      method: 'POST',
      headers: { 'Content-Type': contentType, 'CF-Connecting-IP': ip },
      body,
    });

  it('a bad form is 400 with every issue; the copy’s own address is no topic (the feeds name {base_url})', async () => {
    const response = await post(
      new URLSearchParams({
        'hub.mode': 'subscribe',
        'hub.topic': `${server.baseUrl}/feed.xml`,
        'hub.callback': 'http://reader.example/cb',
        'hub.lease_seconds': '2592001',
      }).toString(),
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; issues: { path: string[] }[] };
    expect(body.error).toBe('invalid_request');
    expect(body.issues.map((issue) => issue.path)).toEqual([['hub.topic'], ['hub.callback'], ['hub.lease_seconds']]);
    contract.expectBodyMatches('/websub', 400, body, 'post');
  });

  it('a JSON body is 415', async () => {
    const response = await post(JSON.stringify({ 'hub.mode': 'subscribe' }), 'application/json');
    expect(response.status).toBe(415);
    contract.expectBodyMatches('/websub', 415, await response.json(), 'post');
  });

  it('shares the push write limit: after 10 push writes from one address, its WebSub request is 429', async () => {
    const { refusedStatuses, limited } = await burstInOneWindow(async () => {
      const ip = uniqueClientIp();
      const refusedStatuses: number[] = [];
      for (let write = 0; write < 10; write += 1) {
        const refused = await fetch(`${server.baseUrl}/api/push/subscriptions`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': ip },
          body: '{}',
        });
        refusedStatuses.push(refused.status);
      }
      return { refusedStatuses, limited: await post('hub.mode=subscribe', 'application/x-www-form-urlencoded', ip) };
    });
    expect(refusedStatuses).toEqual(Array(10).fill(400));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    contract.expectBodyMatches('/websub', 429, await limited.json(), 'post');
  });

  it('limits verification requests to 5 a minute per IPv6 /64: the sixth valid request is 429 with writes to spare', async () => {
    const feed = topic('/feed.json');
    const statuses = await burstInOneWindow(async () => {
      // Six addresses of one /64 (decisions.md: limits per IPv4 address or IPv6 /64), each asking once.
      const network = uniqueClientIp().split(':').slice(0, 4).join(':');
      const answers: number[] = [];
      for (let request = 1; request <= 6; request += 1) {
        const response = await subscriber.request(
          `${server.baseUrl}/websub`,
          'subscribe',
          feed,
          `/verify-limit/${request}`,
          {
            clientIp: `${network}::${request.toString(16)}`,
          },
        );
        answers.push(response.status);
        await response.body?.cancel();
      }
      return answers;
    });
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
  });

  it('documents the form it takes: a subscriber’s request is valid under the OpenAPI request schema', async () => {
    const operation = (contract.document.paths['/websub'] as unknown as Record<string, { requestBody: unknown }>)[
      'post'
    ]!;
    expect(operation.requestBody).toMatchObject({
      content: { 'application/x-www-form-urlencoded': { schema: { type: 'object' } } },
    });
    const { schema } = (
      operation.requestBody as { content: Record<string, { schema: { required: string[]; properties: object } }> }
    ).content['application/x-www-form-urlencoded']!;
    expect([...schema.required].sort()).toEqual(['hub.callback', 'hub.mode', 'hub.topic']);
    expect(Object.keys(schema.properties).sort()).toEqual([
      'hub.callback',
      'hub.lease_seconds',
      'hub.mode',
      'hub.secret',
      'hub.topic',
    ]);
  });
});
