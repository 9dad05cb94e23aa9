import { beforeEach, describe, expect, it } from 'vitest';
import { fixtureFiles } from '../../../scripts/lib/built-files.ts';
import { edgeApp } from '../../../scripts/lib/edge-app.ts';
import { discordRateLimit, slackRateLimit, startChatReceiver } from '../../../tests/support/chat-receiver.ts';
import { DiscordExecuteWebhookSchema, SlackIncomingWebhookSchema } from '../../../tests/support/chat-shapes.ts';
import { deliveryFixture } from '../../../tests/support/delivery-fixture.ts';
import { minutesFrom } from '../../../tests/support/minutes-from.ts';
import { REAL_D1 } from '../../../tests/support/push-d1.ts';
import { drainPushQueue } from '../../../tests/support/recording-queue.ts';
import { vapidForTest } from '../../../tests/support/test-vapid.ts';
import { stamped } from '../../core/build-stamp.ts';
import { buildEdgeDataset } from '../../core/dataset.ts';
import type { Event } from '../../core/schemas.ts';
import { makeEvent, NOW } from '../../core/test-events.ts';
import { withCommonHeaders } from '../http/cors.ts';
import { consumePushBatch } from '../push/consumer.ts';
import { FAILING_LIMIT_MS } from '../delivery/policy.ts';
import { dispatchDue } from '../push/dispatch.ts';
import { pruneLedger } from '../delivery/ledger.ts';
import { deliverChat } from './delivery.ts';
import type { ChatDeliverMessage } from './messages.ts';

/**
 * The chat webhooks over a real local D1 (Miniflare's, as `wrangler dev` runs it): the write path through the edge
 * app, then the cron's dispatch and the queue's consumer (handed the recorded messages one by one) posting to
 * Discord and Slack receivers on loopback. Expected rows, statuses and delays are written by hand from
 * decisions.md and the platforms' documentation; bodies are held to the documented shapes (chat-shapes.ts).
 * tests/chat-webhooks.test.ts runs the same path in workerd with the real queue and cron.
 */

const { secrets, keys: vapid } = vapidForTest();
const files = fixtureFiles([], NOW);

const fixture = deliveryFixture({ receiver: startChatReceiver });
let published: Event[];

const assets = { fetch: async () => Response.json(stamped(buildEdgeDataset(published, NOW), 'test-build')) };
const consumerEnv = () => ({ PUSH_DB: fixture.db, PUSH_QUEUE: fixture.queued.queue });
const settings = (allowLoopbackReceiver = true) => ({ vapid, allowLoopbackReceiver });
const app = (bindings: Record<string, unknown> = {}) =>
  edgeApp(files, {
    push: {
      ...secrets,
      PUSH_DB: fixture.db,
      PUSH_QUEUE: fixture.queued.queue as unknown as Queue,
      PUSH_ALLOW_LOOPBACK_RECEIVER: 'true',
      ...bindings,
    },
  });

beforeEach(() => {
  published = [makeEvent({ id: 'old-1', announcedAt: minutesFrom(-3000).toISOString() })];
});

const write = (method: 'POST' | 'DELETE', body: unknown, bindings: Record<string, unknown> = {}) =>
  app(bindings).request('/api/webhooks', {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

let sequence = 0;
/** A webhook of `platform` on the loopback receiver, subscribed over the write path; its path and row id. */
async function connect(
  platform: 'discord' | 'slack',
  locale: 'en' | 'zh' = 'en',
  providers = ['provider_a'],
  kinds = ['reset'],
): Promise<{ path: string; id: number }> {
  sequence += 1;
  const path =
    platform === 'discord' ? `/api/webhooks/${sequence}/token-${sequence}` : `/services/T0/B${sequence}/secret`;
  const response = await write('POST', { url: `${fixture.receiver.origin}${path}`, providers, kinds, locale });
  expect(response?.status, await response?.clone().text()).toBe(201);
  const row = await fixture.db
    .prepare('SELECT id FROM chat_webhooks WHERE url = ?1')
    .bind(`${fixture.receiver.origin}${path}`)
    .first<{ id: number }>();
  return { path, id: row!.id };
}

/** Hands every recorded message to the consumer, and what they enqueue in turn, until the queue is empty. */
const drainQueue = (now = NOW) =>
  drainPushQueue(fixture.queued, (batch) => consumePushBatch(batch, consumerEnv(), settings(), () => now), { at: now });

const rows = async (table: string, columns = '*') =>
  (await fixture.db.prepare(`SELECT ${columns} FROM ${table} ORDER BY 1`).all()).results;
const deliverMessage = (event: Event, ids: number[], attempt = 1): ChatDeliverMessage => ({
  type: 'chat-deliver',
  event,
  transition: 'announced',
  webhookIds: ids,
  attempt,
});

describe('the write path, stored', REAL_D1, () => {
  const STORED = 'https://discord.com/api/webhooks/123/AbC';

  it('stores a new URL (201 with its platform), and every spelling of it replaces its topics (200)', async () => {
    const first = await write('POST', {
      url: 'HTTPS://DISCORD.com.:443/api/webhooks/123/AbC',
      providers: ['provider_a'],
    });
    expect(first?.status).toBe(201);
    expect(await first!.json()).toEqual({
      platform: 'discord',
      providers: ['provider_a'],
      kinds: ['reset'],
      locale: 'en',
    });
    const second = await write('POST', {
      url: STORED,
      providers: ['provider_b', 'provider_c'],
      kinds: ['boost'],
      locale: 'zh',
    });
    expect(second?.status).toBe(200);
    expect(await second!.json()).toEqual({
      platform: 'discord',
      providers: ['provider_b', 'provider_c'],
      kinds: ['boost'],
      locale: 'zh',
    });
    expect(await rows('chat_webhooks', 'url, platform, locale, failing_since')).toEqual([
      { url: STORED, platform: 'discord', locale: 'zh', failing_since: null },
    ]);
    expect(await rows('chat_webhook_topics', 'provider, kind')).toEqual([
      { provider: 'provider_b', kind: 'boost' },
      { provider: 'provider_c', kind: 'boost' },
    ]);
    const slack = await write('POST', { url: 'https://hooks.slack.com/services/T1/B2/c3', providers: ['provider_a'] });
    expect(await slack!.json()).toMatchObject({ platform: 'slack' });
  });

  it('forgets a URL under any spelling with its topics (204), and an unknown one the same', async () => {
    await write('POST', { url: STORED, providers: ['provider_a'] });
    expect((await write('DELETE', { url: ' https://Discord.com./api/webhooks/123/AbC' }))?.status).toBe(204);
    expect(await rows('chat_webhooks')).toEqual([]);
    expect(await rows('chat_webhook_topics')).toEqual([]);
    expect((await write('DELETE', { url: STORED }))?.status).toBe(204);
  });

  it('a database that fails is 503 webhooks_unavailable with Retry-After, as the worker sends it', async () => {
    const failing = () => Promise.reject(new Error('D1_ERROR: database is locked: SQLITE_BUSY'));
    const statement = { bind: () => statement, first: failing, run: failing, all: failing, raw: failing };
    const locked = { prepare: () => statement, batch: failing, exec: failing } as unknown as D1Database;
    for (const [method, body] of [
      ['POST', { url: STORED, providers: ['provider_a'] }],
      ['DELETE', { url: STORED }],
    ] as const) {
      const sent = withCommonHeaders((await write(method, body, { PUSH_DB: locked }))!);
      expect(sent.status).toBe(503);
      expect(await sent.json()).toEqual({ error: 'webhooks_unavailable' });
      expect(sent.headers.get('Retry-After')).toBe('30');
      expect(sent.headers.get('Cache-Control')).toBe('no-store');
    }
  });
});

describe('dispatch and delivery', REAL_D1, () => {
  it('posts a new event once to each webhook of its topic, in its language and its platform’s shape; none of the history', async () => {
    const discordEn = await connect('discord', 'en');
    const slackZh = await connect('slack', 'zh');
    const otherTopic = await connect('discord', 'en', ['provider_b']);
    await dispatchDue({ ASSETS: assets, PUSH_DB: fixture.db, PUSH_QUEUE: fixture.queued.queue }, NOW);
    await drainQueue();
    expect(fixture.receiver.received).toEqual([]);

    published.push(makeEvent({ id: 'new-1', announcedAt: minutesFrom(-1).toISOString(), summary: 'Limits reset.' }));
    await dispatchDue({ ASSETS: assets, PUSH_DB: fixture.db, PUSH_QUEUE: fixture.queued.queue }, NOW);
    await dispatchDue({ ASSETS: assets, PUSH_DB: fixture.db, PUSH_QUEUE: fixture.queued.queue }, minutesFrom(1));
    await drainQueue();
    const [discord] = await fixture.receiver.waitFor(1, discordEn.path);
    const [slack] = await fixture.receiver.waitFor(1, slackZh.path);
    expect(discord!.headers['content-type']).toBe('application/json');
    expect(DiscordExecuteWebhookSchema.parse(discord!.body)).toMatchObject({
      content: 'Provider A: Reset',
      embeds: [{ title: 'Provider A: Reset', url: 'http://localhost:4321/provider_a#event-new-1' }],
    });
    expect(SlackIncomingWebhookSchema.parse(slack!.body)).toMatchObject({ text: '供应商 A：重置' });
    expect(JSON.stringify(slack!.body)).toContain('<http://localhost:4321/zh/provider_a#event-new-1|供应商 A：重置>');
    expect(fixture.receiver.received.map(({ path }) => path).sort()).toEqual([discordEn.path, slackZh.path].sort());
    expect(fixture.receiver.received.some(({ path }) => path === otherTopic.path)).toBe(false);
    expect(await rows('chat_deliveries', 'webhook_id, event_id, transition')).toEqual([
      { webhook_id: discordEn.id, event_id: 'new-1', transition: 'announced' },
      { webhook_id: slackZh.id, event_id: 'new-1', transition: 'announced' },
    ]);
  });

  it('posts nothing twice when a message is delivered again', async () => {
    const webhook = await connect('discord');
    const event = makeEvent({ id: 'twice', announcedAt: NOW.toISOString() });
    await deliverChat(consumerEnv(), deliverMessage(event, [webhook.id]), settings(), NOW);
    await deliverChat(consumerEnv(), deliverMessage(event, [webhook.id]), settings(), NOW);
    expect(fixture.receiver.received).toHaveLength(1);
  });

  it('deletes a webhook that answers 404 (Discord: Unknown Webhook) or 410 (Slack: channel_is_archived)', async () => {
    const deleted = await connect('discord');
    const archived = await connect('slack');
    const kept = await connect('slack');
    fixture.receiver.answerNext(deleted.path, {
      status: 404,
      headers: { 'content-type': 'application/json' },
      body: '{"message":"Unknown Webhook","code":10015}',
    });
    fixture.receiver.answerNext(archived.path, { status: 410, body: 'channel_is_archived' });
    const event = makeEvent({ id: 'gone', announcedAt: NOW.toISOString() });
    await deliverChat(consumerEnv(), deliverMessage(event, [deleted.id, archived.id, kept.id]), settings(), NOW);
    expect(await rows('chat_webhooks', 'id')).toEqual([{ id: kept.id }]);
    expect(await rows('chat_webhook_topics', 'webhook_id')).toEqual([{ webhook_id: kept.id }]);
    expect(await rows('chat_deliveries', 'webhook_id')).toEqual([{ webhook_id: kept.id }]);
    expect(fixture.queued.sent).toEqual([]);
  });

  it('waits as a 429 says (Discord’s retry_after in its body, Slack’s Retry-After), without counting a failure', async () => {
    const discord = await connect('discord');
    const slack = await connect('slack');
    const event = makeEvent({ id: 'paced', announcedAt: NOW.toISOString() });
    fixture.receiver.answerNext(discord.path, discordRateLimit(1.5));
    await deliverChat(consumerEnv(), deliverMessage(event, [discord.id]), settings(), NOW);
    // 1.5 s, in the queue's whole seconds: 2.
    expect(fixture.queued.take()).toEqual([{ body: deliverMessage(event, [discord.id], 2), delaySeconds: 2 }]);
    fixture.receiver.answerNext(slack.path, slackRateLimit(7));
    await deliverChat(consumerEnv(), deliverMessage(event, [slack.id]), settings(), NOW);
    expect(fixture.queued.take()).toEqual([{ body: deliverMessage(event, [slack.id], 2), delaySeconds: 7 }]);
    // The claims were given back and nothing counts as failing: the retries post.
    expect(await rows('chat_deliveries')).toEqual([]);
    expect(await rows('chat_webhooks', 'failing_since')).toEqual([{ failing_since: null }, { failing_since: null }]);
    await deliverChat(consumerEnv(), deliverMessage(event, [discord.id, slack.id], 2), settings(), minutesFrom(1));
    const statusesAt = (path: string) =>
      fixture.receiver.received.filter((message) => message.path === path).map(({ status }) => status);
    expect(statusesAt(discord.path)).toEqual([429, 204]);
    expect(statusesAt(slack.path)).toEqual([429, 200]);
  });

  it('the longer of a 429’s two waits (Discord sends both), within an hour', async () => {
    const discord = await connect('discord');
    const event = makeEvent({ id: 'both', announcedAt: NOW.toISOString() });
    fixture.receiver.answerNext(discord.path, {
      ...discordRateLimit(0.25),
      headers: { 'content-type': 'application/json', 'retry-after': '3' },
    });
    await deliverChat(consumerEnv(), deliverMessage(event, [discord.id]), settings(), NOW);
    expect(fixture.queued.take()[0]!.delaySeconds).toBe(3);
    fixture.receiver.answerNext(discord.path, discordRateLimit(86_400));
    await deliverChat(consumerEnv(), deliverMessage(event, [discord.id]), settings(), NOW);
    expect(fixture.queued.take()[0]!.delaySeconds).toBe(3600);
  });

  it('tries a 5xx again with backoff, counting toward the 7 days; a 400 is not tried again', async () => {
    const down = await connect('discord');
    const refused = await connect('slack');
    fixture.receiver.answerNext(down.path, { status: 502 });
    fixture.receiver.answerNext(refused.path, { status: 400, body: 'invalid_payload' });
    const event = makeEvent({ id: 'faults', announcedAt: NOW.toISOString() });
    await deliverChat(consumerEnv(), deliverMessage(event, [down.id, refused.id]), settings(), NOW);
    expect(fixture.queued.take()).toEqual([{ body: deliverMessage(event, [down.id], 2), delaySeconds: 30 }]);
    expect(await rows('chat_webhooks', 'id, failing_since')).toEqual([
      { id: down.id, failing_since: NOW.toISOString() },
      { id: refused.id, failing_since: NOW.toISOString() },
    ]);
    // The refused message keeps its claim: it is not sent again.
    expect(await rows('chat_deliveries', 'webhook_id')).toEqual([{ webhook_id: refused.id }]);
  });

  it('drops a webhook failing for 7 days at its next failure, and clears the record of one that answers', async () => {
    const longFailing = await connect('discord');
    const recovering = await connect('slack');
    await fixture.db
      .prepare('UPDATE chat_webhooks SET failing_since = ?1')
      .bind(new Date(NOW.getTime() - FAILING_LIMIT_MS).toISOString())
      .run();
    fixture.receiver.answerNext(longFailing.path, { status: 503 });
    const event = makeEvent({ id: 'week', announcedAt: NOW.toISOString() });
    await deliverChat(consumerEnv(), deliverMessage(event, [longFailing.id, recovering.id]), settings(), NOW);
    expect(await rows('chat_webhooks', 'id, failing_since')).toEqual([{ id: recovering.id, failing_since: null }]);
    expect(fixture.queued.sent).toEqual([]);
  });

  it('never posts to a loopback webhook once the setting is off: the row is deleted unsent', async () => {
    const webhook = await connect('discord');
    const event = makeEvent({ id: 'off', announcedAt: NOW.toISOString() });
    await deliverChat(consumerEnv(), deliverMessage(event, [webhook.id]), settings(false), NOW);
    expect(fixture.receiver.received).toEqual([]);
    expect(await rows('chat_webhooks')).toEqual([]);
  });

  it('prunes ledger rows older than 15 days, the oldest first, a slice at a time', async () => {
    const webhook = await connect('discord');
    const insert = fixture.db.prepare('INSERT INTO chat_deliveries VALUES (?1, ?2, ?3, ?4)');
    await fixture.db.batch([
      insert.bind(webhook.id, 'old-a', 'announced', minutesFrom(-16 * 24 * 60).toISOString()),
      insert.bind(webhook.id, 'old-b', 'announced', minutesFrom(-15 * 24 * 60 - 1).toISOString()),
      insert.bind(webhook.id, 'recent', 'announced', minutesFrom(-14 * 24 * 60).toISOString()),
    ]);
    expect(await pruneLedger(fixture.db, 'chat', NOW, 1)).toBe(1);
    expect((await rows('chat_deliveries', 'event_id')).map((row) => row['event_id'])).toEqual(['old-b', 'recent']);
    expect(await pruneLedger(fixture.db, 'chat', NOW)).toBe(1);
    expect((await rows('chat_deliveries', 'event_id')).map((row) => row['event_id'])).toEqual(['recent']);
  });
});
