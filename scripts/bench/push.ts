import { createECDH, randomBytes } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { EdgeDataset } from '../../src/core/dataset.ts';
import { queryLocalD1 } from '../lib/local-d1.ts';
import { BUILT_WORKER_CONFIG, startServer } from '../lib/local-server.ts';
import { giveNewBuildId } from '../lib/new-build-id.ts';

/**
 * Push dispatch at scale, locally: one event of a new build to `size` subscriptions in the local D1, through the
 * real local queue of `wrangler dev`, to a receiver on loopback. Measures the time from the new build's first
 * request (which starts its dispatch: docs/delivery.md, "A new build") until the first and the last push reached the
 * receiver; no cron runs. Runs on a copy of the last build (dist/), as the push end-to-end tests do.
 */

interface PushBenchRow {
  size: number;
  firstPushSeconds: number;
  lastPushSeconds: number;
  pushesPerSecond: number;
}

async function startCountingReceiver() {
  let count = 0;
  let first = 0;
  let last = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      count += 1;
      last = performance.now();
      if (count === 1) first = last;
      response.writeHead(201).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    count: () => count,
    firstAt: () => first,
    lastAt: () => last,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function benchOne(size: number): Promise<PushBenchRow> {
  const copy = await mkdtemp(path.join(os.tmpdir(), 'departures-board-push-bench-'));
  const state = await mkdtemp(path.join(os.tmpdir(), 'departures-board-push-bench-state-'));
  const receiver = await startCountingReceiver();
  try {
    await cp(path.dirname(path.dirname(BUILT_WORKER_CONFIG)), copy, { recursive: true });
    const configFile = path.join(copy, 'server/wrangler.json');
    const serve = () =>
      startServer({ workerConfig: configFile, persistTo: state, vars: { ALLOW_LOOPBACK_RECEIVERS: 'true' } });

    // The first build's first request meets the history; then the subscribers and a new build with a new event,
    // written while stopped, as a deploy does.
    let server = await serve();
    while ((await queryLocalD1(state, "SELECT 1 FROM dispatch_state WHERE name = 'first_dispatch'")).length === 0)
      await new Promise((resolve) => setTimeout(resolve, 100));
    await server.stop();
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    await queryLocalD1(
      state,
      `WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${size})
       INSERT INTO subscriptions (endpoint, p256dh, auth, locale, created_at)
       SELECT '${receiver.origin}/s/' || i, '${ecdh.getPublicKey().toString('base64url')}',
              '${randomBytes(16).toString('base64url')}', 'en', '${new Date().toISOString()}' FROM n`,
    );
    await queryLocalD1(
      state,
      "INSERT INTO subscription_topics (provider, kind, subscription_id) SELECT 'provider_a', 'reset', id FROM subscriptions",
    );
    const dataFile = path.join(copy, 'client/data/board.json');
    const data = JSON.parse(await readFile(dataFile, 'utf8')) as EdgeDataset;
    data.providers.provider_a.recent.unshift({
      id: 'bench-reset',
      provider: 'provider_a',
      kind: 'reset',
      scope: 'global',
      announcedAt: new Date(Date.now() - 60_000).toISOString(),
      effectiveAt: null,
      sourceUrl: 'https://posts.provider-a.example/bench-reset',
      sourceAccount: 'provider_a_team',
      summary: 'Limits reset for everyone.',
      audience: [],
      verified: true,
    });
    await writeFile(dataFile, JSON.stringify(data));
    await giveNewBuildId(copy);

    server = await serve();
    const start = server.firstRequestAt;
    const deadline = Date.now() + 30 * 60_000;
    while (receiver.count() < size) {
      if (Date.now() > deadline) throw new Error(`${receiver.count()} of ${size} pushes arrived in 30 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const lastPushSeconds = (receiver.lastAt() - start) / 1000;
    await server.stop();
    return {
      size,
      firstPushSeconds: (receiver.firstAt() - start) / 1000,
      lastPushSeconds,
      pushesPerSecond: size / lastPushSeconds,
    };
  } finally {
    await receiver.close();
    await rm(copy, { recursive: true, force: true });
    await rm(state, { recursive: true, force: true });
  }
}

/** The Markdown section of `npm run bench` for push dispatch at each subscriber count. */
export async function pushSection(sizes: number[]): Promise<string> {
  const rows: PushBenchRow[] = [];
  for (const size of sizes) {
    console.error(`push: ${size.toLocaleString('en')} subscriptions…`);
    rows.push(await benchOne(size));
  }
  return [
    "### Push dispatch (one event of a new build, from the build's first request, no cron; local D1 and queue in wrangler dev, receiver on loopback)",
    '',
    '| subscriptions | first push s | last push s | pushes/s |',
    '| --- | --- | --- | --- |',
    ...rows.map(
      (row) =>
        `| ${row.size.toLocaleString('en')} | ${row.firstPushSeconds.toFixed(1)} | ${row.lastPushSeconds.toFixed(1)} | ${row.pushesPerSecond.toFixed(0)} |`,
    ),
  ].join('\n');
}
