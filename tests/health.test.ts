import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { queryLocalD1 } from '../scripts/lib/local-d1.ts';
import { type RunningServer, startServer } from '../scripts/lib/local-server.ts';
import { type ChatReceiver, startChatReceiver } from './support/chat-receiver.ts';
import { lockLocalD1 } from './support/d1-lock.ts';
import { type FeedServer, rssFeed, startFeedServer } from './support/feed-server.ts';
import { copyBuild } from './support/served-site.ts';
import { scaled } from '../scripts/lib/load-scaled.ts';

/**
 * GET /api/health and the operator's alerts against the served build (decisions.md, "Operable"; docs/health.md),
 * each fault made for real: a database with no migration applied, a cron whose runs fail because the state
 * database is locked, a feed answering 500 for over 15 minutes of the run's clock, a review channel down and then
 * up. The operator's channel (OPS_WEBHOOK_URL, a Discord webhook on loopback) must get exactly one message when a
 * part turns failing and one when it recovers, and none while it stays failing within the hour.
 */

const MINUTE = 60_000;
const OPS_PATH = '/api/webhooks/77/ops-token';
const REVIEW_PATH = '/api/webhooks/42/review-token';
const MIGRATIONS = (await import('node:fs')).readdirSync('migrations').filter((name) => name.endsWith('.sql')).length;

interface HealthBody {
  status: string;
  parts: Record<string, { state: string; reason: string | null } & Record<string, unknown>>;
}

async function health(server: RunningServer): Promise<{ status: number; body: HealthBody; response: Response }> {
  const response = await fetch(`${server.baseUrl}/api/health`);
  const text = await response.text();
  // Never a secret or an address: no webhook, no loopback address, no token.
  expect(text).not.toMatch(/127\.0\.0\.1|token|webhooks/);
  return { status: response.status, body: JSON.parse(text) as HealthBody, response };
}

async function runCron(server: RunningServer, at: Date): Promise<void> {
  const response = await fetch(`${server.baseUrl}/cdn-cgi/local/scheduled?cron=*+*+*+*+*&time=${at.getTime()}`);
  expect(response.status, await response.clone().text()).toBe(200);
}

/** The operator's messages so far, as their text (Discord's `content`). */
const opsTexts = (ops: ChatReceiver) =>
  ops.received
    .filter((message) => message.path === OPS_PATH)
    .map((message) => (message.body as { content: string }).content);

async function servedCopy(name: string, edit?: (config: Record<string, unknown>) => void) {
  const copy = await mkdtemp(path.join(tmpdir(), `departures-board-${name}-dist-`));
  const state = await mkdtemp(path.join(tmpdir(), `departures-board-${name}-state-`));
  await copyBuild(inject('builtDir'), copy);
  if (edit !== undefined) {
    const file = path.join(copy, 'client/data/watch.json');
    const config = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    edit(config);
    await writeFile(file, JSON.stringify(config));
  }
  return {
    copy,
    state,
    remove: () => Promise.all([copy, state].map((dir) => rm(dir, { recursive: true, force: true }))),
  };
}

describe('a database with no migration applied', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ workerConfig: path.join(inject('builtDir'), 'server/wrangler.json') });
    // What a deployment whose `wrangler d1 migrations apply` never ran has: an empty database.
    await fetch(`${server.baseUrl}/api/sources`);
    const tables = await queryLocalD1(
      server.stateDir,
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
    );
    for (const { name } of tables) await queryLocalD1(server.stateDir, `DROP TABLE "${String(name)}"`);
  }, scaled(120_000));
  afterAll(async () => {
    await server?.stop();
  });

  it('is failing (503, no-store, CORS), saying how many migrations are applied of how many', async () => {
    const { status, body, response } = await health(server);
    expect(status).toBe(503);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(body.status).toBe('failing');
    expect(body.parts['database']).toEqual({
      state: 'failing',
      reason: `0 of the build's ${MIGRATIONS} migrations are applied`,
      reachable: true,
      migrationsApplied: 0,
      migrationsExpected: MIGRATIONS,
    });
    expect(body.parts['build']).toMatchObject({ state: 'ok', id: expect.any(String), builtAt: expect.any(String) });
    expect(body.parts['journal']).toMatchObject({ state: 'off', notInGit: 0 });
    // The parts read from the database are not known, and say why.
    expect(body.parts['delivery']?.reason).toMatch(/state database cannot be read \(0 of the build's/);
    const sources = (await (await fetch(`${server.baseUrl}/api/sources`)).json()) as { state: string };
    expect(sources.state).toBe('unknown');
  });
});

describe('the cron failing for real, and the alerts', () => {
  let server: RunningServer;
  let ops: ChatReceiver;
  let served: Awaited<ReturnType<typeof servedCopy>>;
  let start: Date;
  const minute = (count: number) => new Date(start.getTime() + count * MINUTE);

  beforeAll(async () => {
    start = new Date(Math.floor(Date.now() / MINUTE) * MINUTE);
    ops = await startChatReceiver();
    served = await servedCopy('health-cron');
    server = await startServer({
      workerConfig: path.join(served.copy, 'server/wrangler.json'),
      persistTo: served.state,
      vars: { ALLOW_LOOPBACK_RECEIVERS: 'true' },
      secrets: { OPS_WEBHOOK_URL: `${ops.origin}${OPS_PATH}` },
    });
  }, scaled(120_000));
  afterAll(async () => {
    await server?.stop();
    await ops?.close();
    await served?.remove();
  });

  it('is degraded before the first run, and ok after it, every migration applied', async () => {
    expect((await health(server)).body.parts['cron']).toMatchObject({ state: 'degraded', lastRun: null });
    await runCron(server, start);
    const { status, body } = await health(server);
    expect(body.parts['database']).toMatchObject({ state: 'ok', migrationsApplied: MIGRATIONS });
    expect(body.parts['cron']).toMatchObject({ state: 'ok', lastRun: start.toISOString(), failuresInRow: 0 });
    expect({ status, body: body.status }).toEqual({ status: 200, body: 'ok' });
    expect(opsTexts(ops)).toEqual([]);
  });

  it('turns failing after three runs that could not write, tells the operator once, and once when it recovers', async () => {
    const lock = await lockLocalD1(server.stateDir);
    try {
      await runCron(server, minute(1));
      await runCron(server, minute(2));
      expect(opsTexts(ops)).toEqual([]);
      await runCron(server, minute(3));
      const { status, body } = await health(server);
      expect(status).toBe(503);
      expect(body.parts['cron']).toMatchObject({
        state: 'failing',
        failuresInRow: 3,
        lastSuccess: start.toISOString(),
      });
      // Still failing a minute later: nothing more within the hour.
      await runCron(server, minute(4));
    } finally {
      await lock.release();
    }
    const texts = opsTexts(ops);
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatch(/^Departures Board: the cron is failing: 3 scheduled runs failed in a row/);
    await runCron(server, minute(5));
    expect((await health(server)).body.parts['cron']).toMatchObject({ state: 'ok', failuresInRow: 0 });
    const both = opsTexts(ops);
    expect(both).toHaveLength(2);
    expect(both[1]).toMatch(/^Departures Board: the cron recovered\. http/);
    await runCron(server, minute(6));
    expect(opsTexts(ops)).toHaveLength(2);
  });
});

describe('a feed failing past 15 minutes and a review channel down, then both back', () => {
  let server: RunningServer;
  let ops: ChatReceiver;
  let review: ChatReceiver;
  let feeds: FeedServer;
  let served: Awaited<ReturnType<typeof servedCopy>>;
  let now: Date;
  const minute = (count: number) => new Date(now.getTime() + count * MINUTE);
  const newReset = () => ({
    link: 'https://posts.provider-a.example/@provider_a_eng/1999000000000000002',
    title: 'We have reset weekly usage limits for everyone & every plan.',
    publishedAt: minute(-23).toISOString(),
  });

  beforeAll(async () => {
    now = new Date(Math.floor(Date.now() / MINUTE) * MINUTE);
    [ops, review, feeds] = await Promise.all([startChatReceiver(), startChatReceiver(), startFeedServer()]);
    served = await servedCopy('health-watch', (config) => {
      config['sources'] = {
        provider_a: [
          { account: 'provider_a_eng', feed: `${feeds.origin}/provider_a_eng.rss` },
          { account: 'provider_a_status', feed: `${feeds.origin}/status.rss` },
        ],
        provider_b: [],
        provider_c: [],
      };
      config['repositoryUrl'] = 'https://github.com/example-owner/departures-board';
    });
    feeds.serve('/provider_a_eng.rss', rssFeed([newReset()]));
    feeds.fail('/status.rss', 500);
    review.power.unavailable();
    server = await startServer({
      workerConfig: path.join(served.copy, 'server/wrangler.json'),
      persistTo: served.state,
      vars: { ALLOW_LOOPBACK_RECEIVERS: 'true' },
      secrets: { OPS_WEBHOOK_URL: `${ops.origin}${OPS_PATH}`, REVIEW_WEBHOOK_URL: `${review.origin}${REVIEW_PATH}` },
    });
  }, scaled(120_000));
  afterAll(async () => {
    await server?.stop();
    await Promise.all([ops?.close(), review?.close(), feeds?.close()]);
    await served?.remove();
  });

  it('tells the operator once per part turning failing, none while they stay failing, once per recovery', async () => {
    await runCron(server, minute(-20));
    // Failing, but for under 15 minutes of the run's clock: the operator is not told yet.
    expect(opsTexts(ops)).toEqual([]);
    await runCron(server, minute(-1));
    const sources = (await (await fetch(`${server.baseUrl}/api/sources`)).json()) as {
      state: string;
      sources: { ok: boolean; failingSince?: string }[];
    };
    expect(sources.state).toBe('failing');
    expect(sources.sources.filter((source) => !source.ok)).toMatchObject([{ failingSince: minute(-20).toISOString() }]);
    const { status, body } = await health(server);
    expect(status).toBe(503);
    expect(body.parts['watcher']).toMatchObject({ state: 'failing', sources: 'failing', failing: 1 });
    expect(body.parts['reviewMessages']).toMatchObject({ state: 'failing', notSent: 1 });
    const failing = opsTexts(ops);
    expect(failing).toHaveLength(2);
    expect(failing.join('\n')).toMatch(/the watcher is failing/);
    expect(failing.join('\n')).toMatch(/the review channel is failing/);

    await runCron(server, minute(0));
    expect(opsTexts(ops)).toHaveLength(2);

    feeds.serve('/status.rss', rssFeed([]));
    await review.power.up();
    // Past every backoff (30 minutes at most).
    await runCron(server, minute(40));
    const recovered = opsTexts(ops).slice(2);
    expect(recovered.toSorted()).toEqual([
      expect.stringMatching(/^Departures Board: the review channel recovered\./),
      expect.stringMatching(/^Departures Board: the watcher recovered\./),
    ]);
    expect(review.received.filter((message) => message.path === REVIEW_PATH)).toHaveLength(1);
    await runCron(server, minute(41));
    expect(opsTexts(ops)).toHaveLength(4);
  });
});
