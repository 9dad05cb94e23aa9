// `npm run bench -- --delivery`: the delivery wing at scale (docs/performance.md, "Delivery at scale").
//
// 1. End to end in `wrangler dev`: a copy of the last build (dist/), N subscribers written into its local D1, one
//    reset published in the copy and a new build id given to it; timed from the new build's first request (which
//    starts its dispatch: docs/delivery.md, "A new build") until the last delivery reached a receiver on loopback.
// 2. CPU per queue invocation, in-process: the built worker's `queue()` (dist/server/entry.mjs, imported with
//    cpu.ts's loader hook) handed batches of at most 100 messages (wrangler.jsonc's max_batch_size) of what it
//    queued itself, D1 an in-memory SQLite whose own CPU is left out (sqlite-d1.ts), `fetch` answered from memory.
// 3. CPU of one minute cron (`scheduled()`) that queues 10,000 due deliveries again (recover.ts).
// 5. Confirm to last delivery (`--confirm`): N subscribers of every channel in `wrangler dev`, a draft in
//    watch_drafts, the reviewer's POST /review/<draft id> (a token made here with node:crypto's HMAC, as
//    src/core/review/token.ts specifies), timed until the last subscriber's delivery reached a receiver.
// 4. "Before": the same for the code of an older commit (the rewrite's parent), in a git worktree under /tmp: its
//    own push benchmark end to end, and its `queue()` in-process on its own schema.
//
// No request leaves this machine: the receivers listen on 127.0.0.1, and in-process `fetch` answers from memory
// and refuses every other host.
import { spawn, spawnSync } from 'node:child_process';
import { createECDH, createHmac, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runInNewContext } from 'node:vm';
import type { EdgeDataset } from '../../src/core/dataset.ts';
import type { Event } from '../../src/core/schemas.ts';
import { topicsChangedBy } from '../../src/core/websub/topics.ts';
import { generateVapidSecrets } from '../../src/node/local-vapid.ts';
import { assetsBinding, memoryKv, OPEN_RATE_LIMITER, readBuiltFiles } from '../lib/built-files.ts';
import { queryLocalD1 } from '../lib/local-d1.ts';
import { BUILT_WORKER_CONFIG, type RunningServer, startServer } from '../lib/local-server.ts';
import { giveNewBuildId } from '../lib/new-build-id.ts';
import { projectRoot } from '../lib/tools.ts';
import './cpu.ts'; // its loader hook answers the bundle's `cloudflare:workers` import
import { d1Cpu, sqliteD1 } from './sqlite-d1.ts';

/** The site address every benchmark build is made with (run.ts: `buildSite({ siteUrl })`). */
export const BENCH_SITE_URL = 'http://127.0.0.1:4321';
/** The Workers Free plan's CPU time per invocation (a queue consumer's and a cron's included). */
const FREE_PLAN_CPU_MS = 10;
/** wrangler.jsonc's `max_batch_size` of the delivery queue. */
const MAX_BATCH_SIZE = 100;
/** What `recover.ts` queues again per run at most (REQUEUE_PER_RUN). */
const CRON_REQUEUE = 10_000;
const MINUTE = 60_000;

type Channel = 'push' | 'discord' | 'slack' | 'websub';
/** Which code: this checkout's delivery wing, or the code before it (src/server/push, its own tables). */
type Code = 'now' | 'before';

const median = (values: readonly number[]) =>
  values.length === 0 ? Number.NaN : [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const cpuMs = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};
const count = (n: number) => n.toLocaleString('en');
const fixed = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : '–');
const table = (header: string[], rows: (string | number)[][]) =>
  [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');

/** The reset every run publishes: announced a minute ago, so that the dispatch finds it due. */
function benchEvent(now: Date): Event {
  return {
    id: 'bench-reset',
    provider: 'provider_a',
    kind: 'reset',
    scope: 'global',
    announcedAt: new Date(now.getTime() - MINUTE).toISOString(),
    effectiveAt: null,
    sourceUrl: 'https://posts.provider-a.example/bench-reset',
    sourceAccount: 'provider_a_team',
    summary: 'Limits reset for everyone.',
    audience: [],
    verified: true,
  } as unknown as Event;
}

/** One P-256 key and auth secret for every push subscriber: each push still makes its own ephemeral key. */
function pushKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

/** The feeds a provider_a reset changes (WebSub topics), at the benchmark build's address. */
const WEBSUB_TOPICS = topicsChangedBy(BENCH_SITE_URL, ['provider_a']);

/**
 * SQL that writes `size` subscribers of `channel` (ids after `offset`) on the receiver `origin`, subscribed to a
 * provider_a reset, in this checkout's tables (migrations/0001_state.sql) or the older ones (0001, 0006, 0007).
 * A quarter read Chinese. Values are the benchmark's own, written into the SQL.
 */
function seedSql(code: Code, channel: Channel, size: number, offset: number, origin: string, now: Date): string[] {
  const numbers = `WITH RECURSIVE n (i) AS (SELECT ${offset + 1} UNION ALL SELECT i + 1 FROM n WHERE i < ${offset + size})`;
  const locale = "CASE WHEN i % 4 = 0 THEN 'zh' ELSE 'en' END";
  const at = now.toISOString();
  const leaseEnd = new Date(now.getTime() + 10 * 86_400_000).toISOString();
  const topics = `json('${JSON.stringify(WEBSUB_TOPICS)}')`;
  const topicOf = `json_extract(${topics}, '$[' || (i % ${WEBSUB_TOPICS.length}) || ']')`;
  const address = {
    push: `'${origin}/push/' || i`,
    discord: `'${origin}/api/webhooks/' || i || '/bench-token'`,
    slack: `'${origin}/services/T' || i || '/B' || i || '/bench-secret'`,
    websub: `'${origin}/websub/' || i`,
  }[channel];
  if (code === 'now') {
    const keys = pushKeys();
    const data = {
      push: `json_object('p256dh', '${keys.p256dh}', 'auth', '${keys.auth}')`,
      discord: "'{}'",
      slack: "'{}'",
      websub: `json_object('topic', ${topicOf}, 'secret', 'bench-secret-' || i)`,
    }[channel];
    const key = channel === 'websub' ? `${topicOf} || ' ' || ${address}` : address;
    return [
      `${numbers} INSERT INTO subscribers (id, channel, key, address, locale, data, created_at, expires_at)
       SELECT i, '${channel}', ${key}, ${address}, ${channel === 'websub' ? 'NULL' : locale}, ${data}, '${at}',
              ${channel === 'websub' ? `'${leaseEnd}'` : 'NULL'} FROM n`,
      `INSERT INTO subscriber_topics (topic, subscriber_id)
       SELECT CASE WHEN channel = 'websub' THEN json_extract(data, '$.topic') ELSE 'provider_a/reset' END, id
       FROM subscribers WHERE id > ${offset} AND id <= ${offset + size}`,
    ];
  }
  if (channel === 'push') {
    const keys = pushKeys();
    return [
      `${numbers} INSERT INTO subscriptions (id, endpoint, p256dh, auth, locale, created_at)
       SELECT i, ${address}, '${keys.p256dh}', '${keys.auth}', ${locale}, '${at}' FROM n`,
      `INSERT INTO subscription_topics (provider, kind, subscription_id) SELECT 'provider_a', 'reset', id
       FROM subscriptions WHERE id > ${offset}`,
    ];
  }
  if (channel === 'websub')
    return [
      `${numbers} INSERT INTO websub_subscriptions (id, topic, callback, secret, expires_at)
       SELECT i, ${topicOf}, ${address}, 'bench-secret-' || i, '${leaseEnd}' FROM n`,
    ];
  return [
    `${numbers} INSERT INTO chat_webhooks (id, url, platform, locale, created_at)
     SELECT i, ${address}, '${channel}', ${locale}, '${at}' FROM n`,
    `INSERT INTO chat_webhook_topics (provider, kind, webhook_id) SELECT 'provider_a', 'reset', id
     FROM chat_webhooks WHERE id > ${offset}`,
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// 1. End to end in wrangler dev
// ---------------------------------------------------------------------------------------------------------------

/** What a receiver path is, by the addresses seedSql gives. */
function channelOfPath(pathname: string): Channel | 'other' {
  if (pathname.startsWith('/push/')) return 'push';
  if (pathname.startsWith('/api/webhooks/')) return 'discord';
  if (pathname.startsWith('/services/')) return 'slack';
  if (pathname.startsWith('/websub/')) return 'websub';
  return 'other';
}

/** A receiver on loopback that answers every delivery 201 and counts them, each address once and in all. */
async function startCountingReceiver() {
  const seen = new Set<string>();
  /** When each subscriber's first delivery arrived (performance.now()), in arrival order. */
  const arrivals: number[] = [];
  let total = 0;
  let first = 0;
  let last = 0;
  const byChannel = new Map<string, number>();
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      total += 1;
      const pathname = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
      if (!seen.has(pathname)) {
        seen.add(pathname);
        last = performance.now();
        arrivals.push(last);
        if (seen.size === 1) first = last;
        const channel = channelOfPath(pathname);
        byChannel.set(channel, (byChannel.get(channel) ?? 0) + 1);
      }
      response.writeHead(201).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    distinct: () => seen.size,
    total: () => total,
    byChannel: () => byChannel,
    firstAt: () => first,
    lastAt: () => last,
    arrivals: () => arrivals,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface EndToEndRow {
  label: string;
  /** Every channel (a tenth each of Discord, Slack and WebSub), or push alone. */
  mix: boolean;
  size: number;
  firstSeconds: number;
  lastSeconds: number;
  perSecond: number;
  duplicates: number;
}

/** How many of each channel a run of `size` subscribers writes: all push, or a mix of every channel. */
function channelShares(size: number, mix: boolean): [Channel, number][] {
  if (!mix) return [['push', size]];
  const tenth = Math.floor(size / 10);
  return [
    ['push', size - 3 * tenth],
    ['discord', tenth],
    ['slack', tenth],
    ['websub', tenth],
  ];
}

/**
 * The first build's first request meets the history (its dispatch suppresses it), then, with the server stopped,
 * the subscribers of each channel's share are written into the state; the clock they were written at is returned.
 */
async function meetHistoryThenSeed(
  serve: () => Promise<RunningServer>,
  state: string,
  shares: readonly [Channel, number][],
  origin: string,
): Promise<Date> {
  const server = await serve();
  while ((await queryLocalD1(state, "SELECT 1 FROM dispatch_state WHERE name = 'first_dispatch'")).length === 0)
    await new Promise((resolve) => setTimeout(resolve, 100));
  await server.stop();
  const now = new Date();
  let offset = 0;
  for (const [channel, share] of shares) {
    for (const sql of seedSql('now', channel, share, offset, origin, now)) await queryLocalD1(state, sql);
    offset += share;
  }
  return now;
}

async function endToEndOne(size: number, mix: boolean): Promise<EndToEndRow> {
  const copy = await mkdtemp(path.join(os.tmpdir(), 'departures-board-delivery-bench-'));
  const state = await mkdtemp(path.join(os.tmpdir(), 'departures-board-delivery-bench-state-'));
  const receiver = await startCountingReceiver();
  const shares = channelShares(size, mix);
  try {
    await cp(path.dirname(path.dirname(BUILT_WORKER_CONFIG)), copy, { recursive: true });
    const configFile = path.join(copy, 'server/wrangler.json');
    const serve = () =>
      startServer({ workerConfig: configFile, persistTo: state, vars: { ALLOW_LOOPBACK_RECEIVERS: 'true' } });

    // The first build's first request meets the history; then the subscribers and a new build with a new event,
    // written while stopped, as a deploy does.
    const now = await meetHistoryThenSeed(serve, state, shares, receiver.origin);
    const dataFile = path.join(copy, 'client/data/board.json');
    const data = JSON.parse(await readFile(dataFile, 'utf8')) as EdgeDataset;
    data.providers.provider_a.recent.unshift(benchEvent(now));
    await writeFile(dataFile, JSON.stringify(data));
    await giveNewBuildId(copy);

    const server = await serve();
    const start = server.firstRequestAt;
    const deadline = Date.now() + 30 * MINUTE;
    while (receiver.distinct() < size) {
      if (Date.now() > deadline) {
        const got = [...receiver.byChannel()].map(([name, n]) => `${name} ${n}`).join(', ');
        throw new Error(`${receiver.distinct()} of ${size} deliveries arrived in 30 minutes (${got})`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const lastSeconds = (receiver.lastAt() - start) / 1000;
    await server.stop();
    const label = shares.map(([channel, share]) => `${count(share)} ${channel}`).join(', ');
    return {
      label,
      mix,
      size,
      firstSeconds: (receiver.firstAt() - start) / 1000,
      lastSeconds,
      perSecond: size / lastSeconds,
      duplicates: receiver.total() - receiver.distinct(),
    };
  } finally {
    await receiver.close();
    await rm(copy, { recursive: true, force: true });
    await rm(state, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// 5. Confirm to last delivery, in wrangler dev
// ---------------------------------------------------------------------------------------------------------------

/** The review signing key of the served copy (a secret of the benchmark's own state folder). */
const BENCH_REVIEW_KEY = 'the delivery benchmark review signing key';

/**
 * A review token as src/core/review/token.ts makes it: `<expiry seconds>.<base64url HMAC-SHA256 of
 * "review\n<draft id>\n<expiry seconds>">`, written here with Node's own HMAC.
 */
export function reviewToken(key: string, draftId: string, expiresAt: Date): string {
  const expirySeconds = Math.floor(expiresAt.getTime() / 1000);
  const mac = createHmac('sha256', key).update(`review\n${draftId}\n${expirySeconds}`).digest('base64url');
  return `${expirySeconds}.${mac}`;
}

const percentileOf = (values: readonly number[], p: number) =>
  values.length === 0
    ? Number.NaN
    : [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(values.length * p) - 1)]!;

export interface ConfirmRow {
  label: string;
  size: number;
  /** How the event entered the journal. */
  how: string;
  /** The POST's answer (303 once recorded) and how long it took. */
  confirmStatus: number;
  confirmSeconds: number;
  firstSeconds: number;
  p50Seconds: number;
  p95Seconds: number;
  lastSeconds: number;
  duplicates: number;
}

/**
 * A reviewer's confirm to the last delivery: a copy of the last build serves (its first request meets the history),
 * `size` subscribers of provider_a resets (a mix of every channel) and one draft are written into its local D1
 * while it is stopped, then it serves again (the same build: no dispatch of its own) and the reviewer's form is
 * posted to `/review/<draft id>` with a token signed with the copy's REVIEW_SIGNING_KEY. The confirm puts the event
 * in the journal and queues a dispatch (src/server/journal/decide.ts); no cron runs. Timed from the POST's sending
 * until each subscriber's first delivery reached the loopback receiver.
 */
export async function confirmToLastDelivery(size: number): Promise<ConfirmRow> {
  const copy = await mkdtemp(path.join(os.tmpdir(), 'departures-board-confirm-bench-'));
  const state = await mkdtemp(path.join(os.tmpdir(), 'departures-board-confirm-bench-state-'));
  const receiver = await startCountingReceiver();
  const shares = channelShares(size, true);
  try {
    await cp(path.dirname(path.dirname(BUILT_WORKER_CONFIG)), copy, { recursive: true });
    const configFile = path.join(copy, 'server/wrangler.json');
    const serve = () =>
      startServer({
        workerConfig: configFile,
        persistTo: state,
        vars: { ALLOW_LOOPBACK_RECEIVERS: 'true' },
        secrets: { REVIEW_SIGNING_KEY: BENCH_REVIEW_KEY },
      });
    const now = await meetHistoryThenSeed(serve, state, shares, receiver.origin);
    // The watcher's draft as it stores one: the event file's JSON, not verified, its review message sent.
    const draft = {
      ...benchEvent(now),
      id: 'bench-confirm',
      sourceUrl: 'https://posts.provider-a.example/bench-confirm',
    };
    const file = `${JSON.stringify({ ...draft, verified: false }, null, 2)}\n`.replaceAll("'", "''");
    await queryLocalD1(
      state,
      `INSERT INTO watch_drafts (id, provider, source_url, file, found_at, review_state, review_next_at)
       VALUES ('${draft.id}', '${draft.provider}', '${draft.sourceUrl}', '${file}', '${now.toISOString()}', 'sent',
               '${now.toISOString()}')`,
    );

    const server = await serve();
    const token = reviewToken(BENCH_REVIEW_KEY, draft.id, new Date(Date.now() + 86_400_000));
    const start = performance.now();
    const confirmed = await fetch(`${server.baseUrl}/review/${draft.id}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.baseUrl },
      body: new URLSearchParams({ t: token, action: 'confirm', kind: 'reset', scope: 'global', effectiveAt: '' }),
    });
    const confirmSeconds = (performance.now() - start) / 1000;
    await confirmed.arrayBuffer();
    if (confirmed.status !== 303) {
      await server.stop();
      throw new Error(`the review page answered the confirm ${confirmed.status}, not 303`);
    }
    const deadline = Date.now() + 10 * MINUTE;
    while (receiver.distinct() < size) {
      if (Date.now() > deadline) {
        const got = [...receiver.byChannel()].map(([name, n]) => `${name} ${n}`).join(', ');
        await server.stop();
        throw new Error(
          `${receiver.distinct()} of ${size} deliveries arrived in 10 minutes after the confirm (${got})`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await server.stop();
    const seconds = receiver.arrivals().map((at) => (at - start) / 1000);
    return {
      label: shares.map(([channel, share]) => `${count(share)} ${channel}`).join(', '),
      size,
      how: 'POST /review/<draft id> (the review page)',
      confirmStatus: confirmed.status,
      confirmSeconds,
      firstSeconds: (receiver.firstAt() - start) / 1000,
      p50Seconds: percentileOf(seconds, 0.5),
      p95Seconds: percentileOf(seconds, 0.95),
      lastSeconds: (receiver.lastAt() - start) / 1000,
      duplicates: receiver.total() - receiver.distinct(),
    };
  } finally {
    await receiver.close();
    await rm(copy, { recursive: true, force: true });
    await rm(state, { recursive: true, force: true });
  }
}

/** The Markdown of the confirm scenario: `npm run bench -- --confirm [--confirm-subscribers 1000]`. */
export async function confirmSection(size: number): Promise<string> {
  const head = git(['rev-parse', '--short', 'HEAD']);
  const load = os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');
  console.error(`delivery: confirm to last delivery, ${count(size)} subscribers of every channel…`);
  const row = await confirmToLastDelivery(size);
  return [
    `### Confirm to last delivery (code ${head}; load average before the run ${load})`,
    '',
    `One draft confirmed through ${row.how}, timed from the POST until each subscriber's first delivery reached a receiver on loopback; \`wrangler dev\`'s local D1 and queue, no cron. Arrival percentiles are over the subscribers.`,
    '',
    table(
      ['subscribers', 'confirm answered (s)', 'first delivery s', 'p50 s', 'p95 s', 'last delivery s', 'second copies'],
      [
        [
          row.label,
          `${row.confirmStatus} in ${fixed(row.confirmSeconds, 3)}`,
          fixed(row.firstSeconds, 2),
          fixed(row.p50Seconds, 2),
          fixed(row.p95Seconds, 2),
          fixed(row.lastSeconds, 2),
          row.duplicates,
        ],
      ],
    ),
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------------------------
// 2. and 3. In-process: CPU per queue invocation and per cron run
// ---------------------------------------------------------------------------------------------------------------

interface Worker {
  queue(batch: MessageBatch<unknown>, env: unknown, context: unknown): Promise<void>;
  scheduled(controller: ScheduledController, env: unknown, context: unknown): Promise<void>;
}

const executionContext = { waitUntil: () => undefined, passThroughOnException: () => undefined, props: {} };

/** What each version of the code calls its bindings and its queues. */
const CODE = {
  now: {
    db: 'DB',
    queues: { DELIVERY_QUEUE: 'departures-board-delivery' },
  },
  before: {
    db: 'PUSH_DB',
    queues: { PUSH_QUEUE: 'departures-board-push', WEBSUB_QUEUE: 'departures-board-websub' },
  },
} as const;

type Kind = 'dispatch' | 'fanout' | 'deliver' | 'other';

/** A message's kind and the channels it is for, by its `type` (the older code had one type per channel). */
function kindOf(body: { type?: string }): { kind: Kind; family: string } {
  const type = body.type ?? '';
  const [family, kind] = type.includes('-') ? (type.split('-', 2) as [string, string]) : ['any', type];
  if (kind === 'dispatch' || kind === 'fanout' || kind === 'deliver') return { kind, family };
  return { kind: 'other', family };
}

/** The family (before: the message type's prefix) of a channel's messages. */
const familyOf = (code: Code, channel: Channel) =>
  code === 'now' ? 'any' : channel === 'push' ? 'any' : channel === 'websub' ? 'websub' : 'chat';

/** Every producer binding of `code` as one recorder: each message serialized as the runtime does, kept in order. */
function recordingQueues(code: Code) {
  let sequence = 0;
  const waiting: { sequence: number; queue: string; json: string; delaySeconds: number }[] = [];
  const bindings: Record<string, unknown> = {};
  for (const [binding, queue] of Object.entries(CODE[code].queues)) {
    bindings[binding] = {
      async send(body: unknown, options?: QueueSendOptions) {
        waiting.push({
          sequence: sequence++,
          queue,
          json: JSON.stringify(body),
          delaySeconds: options?.delaySeconds ?? 0,
        });
      },
      async sendBatch(messages: Iterable<MessageSendRequest<unknown>>) {
        for (const message of messages)
          waiting.push({
            sequence: sequence++,
            queue,
            json: JSON.stringify(message.body),
            delaySeconds: message.delaySeconds ?? 0,
          });
      },
    };
  }
  return {
    bindings,
    waiting,
    /**
     * The next batch as a consumer gets it: the oldest waiting message, and after it up to 99 more of the same queue
     * and kind (a fan-out's page and its deliveries come as their own batches, so that each is measured alone; a
     * batch that mixes them costs the sum).
     */
    next(): { queue: string; jsons: string[]; kind: Kind; family: string } | undefined {
      const first = waiting[0];
      if (first === undefined) return undefined;
      const { kind, family } = kindOf(JSON.parse(first.json) as { type?: string });
      const taken: number[] = [];
      for (let index = 0; index < waiting.length && taken.length < MAX_BATCH_SIZE; index += 1) {
        const candidate = waiting[index]!;
        if (candidate.queue !== first.queue) continue;
        const other = kindOf(JSON.parse(candidate.json) as { type?: string });
        if (other.kind === kind && other.family === family) taken.push(index);
      }
      const jsons = taken.map((index) => waiting[index]!.json);
      for (const index of taken.reverse()) waiting.splice(index, 1);
      return { queue: first.queue, jsons, kind, family };
    },
    clear: () => waiting.splice(0),
  };
}

/** A `MessageBatch` of the runtime's shape; each body is parsed within the invocation, as the runtime's is. */
function messageBatch(queue: string, jsons: readonly string[], outcome: { acked: number; retried: number }) {
  const messages = jsons.map((json, index) => {
    let body: unknown;
    return {
      id: `bench-${index}`,
      timestamp: new Date(),
      attempts: 1,
      get body() {
        body ??= JSON.parse(json);
        return body;
      },
      ack: () => {
        outcome.acked += 1;
      },
      retry: () => {
        outcome.retried += 1;
      },
    };
  });
  return {
    queue,
    messages,
    ackAll: () => {
      outcome.acked += messages.length;
    },
    retryAll: () => {
      outcome.retried += messages.length;
    },
  } as unknown as MessageBatch<unknown>;
}

/** `fetch` from memory: 201 for every delivery to a benchmark subscriber on 127.0.0.1, nothing else allowed. */
function memoryFetch() {
  const sends = { total: 0 };
  const fetchFromMemory = async (input: RequestInfo | URL, _init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.hostname !== '127.0.0.1') throw new TypeError(`the benchmark sends nothing to ${url.origin}`);
    sends.total += 1;
    return new Response(null, { status: 201 });
  };
  return { fetchFromMemory: fetchFromMemory as typeof fetch, sends };
}

/** Captures the worker's log lines: the report is this process's stdout. Errors are kept to be shown. */
function quietConsole() {
  const saved = { log: console.log, info: console.info, warn: console.warn, error: console.error };
  const errors: string[] = [];
  let lines = 0;
  const tally = () => {
    lines += 1;
  };
  console.log = tally;
  console.info = tally;
  console.warn = tally;
  console.error = (...args: unknown[]) => {
    lines += 1;
    if (errors.length < 5) errors.push(args.map(String).join(' '));
  };
  return {
    errors,
    lines: () => lines,
    restore: () => Object.assign(console, saved),
  };
}

interface Invocation {
  kind: Kind;
  family: string;
  messages: number;
  sends: number;
  /** D1 calls the invocation made (a batch counts once). */
  d1Calls: number;
  ms: number;
}

/** The built worker of a build's output folder, imported from a fresh copy (a new isolate), with its files. */
async function loadWorker(distDir: string) {
  const workerDir = await mkdtemp(path.join(os.tmpdir(), 'departures-board-delivery-isolate-'));
  await cp(path.join(distDir, 'server'), workerDir, { recursive: true });
  const worker = ((await import(pathToFileURL(path.join(workerDir, 'entry.mjs')).href)) as { default: Worker }).default;
  const files = new Map(await readBuiltFiles(path.join(distDir, 'client')));
  // The watcher's sources emptied: a cron run here is the delivery wing's work, and no feed is asked for.
  const watchConfig = files.get('/data/watch.json');
  if (watchConfig !== undefined) {
    const config = JSON.parse(new TextDecoder().decode(watchConfig)) as Record<string, unknown>;
    config['sources'] = { provider_a: [], provider_b: [], provider_c: [] };
    files.set('/data/watch.json', new TextEncoder().encode(JSON.stringify(config)));
  }
  return { worker, files, dispose: () => rm(workerDir, { recursive: true, force: true }) };
}

const collectGarbage = runInNewContext('gc') as () => void;

/** A state database, bindings and recorder for one scenario of `code`, over the build's `files`. */
function scenarioEnv(code: Code, files: Map<string, Uint8Array<ArrayBuffer>>, migrations: string, vapid: object) {
  const db = sqliteD1(migrations);
  const queues = recordingQueues(code);
  const env = {
    ASSETS: assetsBinding(files),
    [CODE[code].db]: db,
    ...queues.bindings,
    SOURCE_HEALTH: memoryKv(),
    MCP_RATE_LIMITER: OPEN_RATE_LIMITER,
    ...vapid,
    ALLOW_LOOPBACK_RECEIVERS: 'true',
    PUSH_ALLOW_LOOPBACK_RECEIVER: 'true',
  };
  (globalThis as { __benchWorkerEnv?: unknown }).__benchWorkerEnv = env;
  return { db, queues, env };
}

/** Runs one batch and returns its CPU time without SQLite's (D1's, done outside the worker in production). */
async function timedBatch(
  worker: Worker,
  env: unknown,
  batch: { queue: string; jsons: string[] },
  sends: { total: number },
) {
  const outcome = { acked: 0, retried: 0 };
  const sendsBefore = sends.total;
  const callsBefore = d1Cpu.calls;
  const d1Before = d1Cpu.spentMs;
  const start = process.cpuUsage();
  await worker.queue(messageBatch(batch.queue, batch.jsons, outcome), env, executionContext);
  const ms = cpuMs(start) - (d1Cpu.spentMs - d1Before);
  return { ms, sends: sends.total - sendsBefore, d1Calls: d1Cpu.calls - callsBefore, ...outcome };
}

export interface QueueScenario {
  code: Code;
  channel: Channel;
  size: number;
  /** The dispatch message of the new build (the isolate is warm: its first dispatch ran before). */
  dispatchMs: number;
  invocations: Invocation[];
  sends: number;
  /** Rows the whole event inserted, updated or deleted in D1 (SQLite's total_changes), from the dispatch on. */
  rowsWritten: number;
  /** SQLite's own CPU over the whole event: D1's work, left out of every worker figure. */
  d1Ms: number;
  totalMs: number;
}

/**
 * One (event, transition) to `size` subscribers of `channel` through the worker's own queue consumer: a new build's
 * `dispatch` message, then every message it leads to, each batch timed. The isolate's first dispatch (which meets
 * the history and loads the delivery code) runs first and is not counted.
 */
async function queueScenario(
  code: Code,
  loaded: Awaited<ReturnType<typeof loadWorker>>,
  migrations: string,
  vapid: object,
  channel: Channel,
  size: number,
): Promise<QueueScenario> {
  const { worker } = loaded;
  const files = new Map(loaded.files);
  const { db, queues, env } = scenarioEnv(code, files, migrations, vapid);
  const { fetchFromMemory, sends } = memoryFetch();
  const realFetch = globalThis.fetch;
  globalThis.fetch = fetchFromMemory;
  const quiet = quietConsole();
  try {
    const queueName: string = Object.values(CODE[code].queues)[0]!;
    const dispatch = { queue: queueName, jsons: [JSON.stringify({ type: 'dispatch', buildId: 'bench-first' })] };
    await timedBatch(worker, env, dispatch, sends);
    queues.clear(); // the history's claims are suppressed; nothing is queued, a check only
    const now = new Date();
    for (const sql of seedSql(code, channel, size, 0, 'http://127.0.0.1:9', now)) await db.prepare(sql).run();
    const data = JSON.parse(new TextDecoder().decode(files.get('/data/board.json'))) as EdgeDataset;
    data.providers.provider_a.recent.unshift(benchEvent(now));
    files.set('/data/board.json', new TextEncoder().encode(JSON.stringify(data)));
    collectGarbage();
    const changes = async () => (await db.prepare('SELECT total_changes() AS n').first<number>('n')) ?? 0;
    const changesBefore = await changes();
    const d1Before = d1Cpu.spentMs;
    const dispatched = await timedBatch(
      worker,
      env,
      { queue: queueName, jsons: [JSON.stringify({ type: 'dispatch', buildId: 'bench' })] },
      sends,
    );
    const family = familyOf(code, channel);
    const invocations: Invocation[] = [];
    for (let batch = queues.next(); batch !== undefined; batch = queues.next()) {
      const result = await timedBatch(worker, env, batch, sends);
      if (result.retried > 0) throw new Error(`${result.retried} ${batch.kind} messages failed: ${quiet.errors}`);
      if (batch.family === family)
        invocations.push({
          kind: batch.kind,
          family: batch.family,
          messages: batch.jsons.length,
          sends: result.sends,
          d1Calls: result.d1Calls,
          ms: result.ms,
        });
    }
    if (sends.total !== size)
      throw new Error(`${sends.total} sends for ${size} ${channel} subscribers (${code}): ${quiet.errors}`);
    return {
      code,
      channel,
      size,
      dispatchMs: dispatched.ms,
      invocations,
      sends: sends.total,
      d1Ms: d1Cpu.spentMs - d1Before,
      rowsWritten: (await changes()) - changesBefore,
      totalMs: invocations.reduce((sum, invocation) => sum + invocation.ms, dispatched.ms),
    };
  } finally {
    quiet.restore();
    globalThis.fetch = realFetch;
  }
}

export interface CronFigures {
  runs: number;
  idleMedianMs: number;
  idleMaxMs: number;
  requeueMedianMs: number;
  requeueMaxMs: number;
  requeued: number;
  messages: number;
}

/**
 * The minute cron (`scheduled()`, the whole invocation) of this checkout: with nothing to do, and with 10,000
 * pending deliveries due and held by nobody (a lost message's, or retries come due), which its recovery queues
 * again as `deliver` messages. Between runs the rows are given back (not timed), so that each run finds them all.
 */
async function cronScenario(
  loaded: Awaited<ReturnType<typeof loadWorker>>,
  migrations: string,
  vapid: object,
  runs: number,
): Promise<CronFigures> {
  const { worker } = loaded;
  const { db, queues, env } = scenarioEnv('now', new Map(loaded.files), migrations, vapid);
  const { fetchFromMemory } = memoryFetch();
  const realFetch = globalThis.fetch;
  globalThis.fetch = fetchFromMemory;
  const quiet = quietConsole();
  let minute = Math.floor(Date.now() / MINUTE) * MINUTE;
  const cron = async () => {
    minute += MINUTE;
    const d1Before = d1Cpu.spentMs;
    const start = process.cpuUsage();
    await worker.scheduled(
      { scheduledTime: minute, cron: '* * * * *', noRetry: () => undefined },
      env,
      executionContext,
    );
    return cpuMs(start) - (d1Cpu.spentMs - d1Before);
  };
  try {
    const warmUp = 3;
    const idle: number[] = [];
    for (let run = 0; run < runs + warmUp; run += 1) {
      const ms = await cron();
      if (run >= warmUp) idle.push(ms);
    }
    queues.clear();
    const now = new Date(minute);
    const event = benchEvent(now);
    for (const sql of seedSql('now', 'push', CRON_REQUEUE, 0, 'http://127.0.0.1:9', now)) await db.prepare(sql).run();
    const foundAt = new Date(minute - 10 * MINUTE).toISOString();
    const expiresAt = new Date(minute - 10 * MINUTE + 86_400_000).toISOString();
    await db
      .prepare(
        `INSERT INTO notifications (event_id, transition, provider, kind, found_at, suppressed, event, fanout_done)
         VALUES (?1, 'announced', 'provider_a', 'reset', ?2, 0, ?3, 1)`,
      )
      .bind(event.id, foundAt, JSON.stringify(event))
      .run();
    await db
      .prepare(
        `INSERT INTO deliveries (subscriber_id, event_id, transition, state, attempts, due_at, expires_at)
         SELECT id, ?1, 'announced', 'pending', 1, ?2, ?3 FROM subscribers`,
      )
      .bind(event.id, new Date(minute - MINUTE).toISOString(), expiresAt)
      .run();
    const requeue: number[] = [];
    let requeued = 0;
    let messages = 0;
    for (let run = 0; run < runs + warmUp; run += 1) {
      await db.prepare("UPDATE deliveries SET lease = NULL, lease_until = NULL WHERE state = 'pending'").run();
      queues.clear();
      collectGarbage();
      const ms = await cron();
      const bodies = queues.waiting.map(({ json }) => JSON.parse(json) as { type: string; subscriberIds?: number[] });
      messages = bodies.filter((body) => body.type === 'deliver').length;
      requeued = bodies.reduce((sum, body) => sum + (body.subscriberIds?.length ?? 0), 0);
      if (requeued !== CRON_REQUEUE)
        throw new Error(`the cron queued ${requeued} of ${CRON_REQUEUE} due deliveries again: ${quiet.errors}`);
      if (run >= warmUp) requeue.push(ms);
    }
    return {
      runs,
      idleMedianMs: median(idle),
      idleMaxMs: Math.max(...idle),
      requeueMedianMs: median(requeue),
      requeueMaxMs: Math.max(...requeue),
      requeued,
      messages,
    };
  } finally {
    quiet.restore();
    globalThis.fetch = realFetch;
  }
}

/** Every in-process figure of one version of the code: queue invocations per channel and size, and (now) the cron. */
export async function measureInProcess(
  code: Code,
  distDir: string,
  migrations: string,
  sizes: readonly number[],
  cronRuns = 21,
): Promise<{ scenarios: QueueScenario[]; cron?: CronFigures }> {
  const loaded = await loadWorker(distDir);
  const vapid = generateVapidSecrets();
  const scenarios: QueueScenario[] = [];
  try {
    // Chat and WebSub are capped at 10,000 subscribers each (src/server/delivery/caps.ts): their smallest size only.
    const plan: [Channel, number][] = [
      ...sizes.map((size): [Channel, number] => ['push', size]),
      ...(['discord', 'slack', 'websub'] as const).map((channel): [Channel, number] => [channel, Math.min(...sizes)]),
    ];
    for (const [channel, size] of plan) {
      console.error(`delivery (${code}): ${channel}, ${count(size)} subscribers, in-process…`);
      scenarios.push(await queueScenario(code, loaded, migrations, vapid, channel, size));
    }
    if (code === 'before') return { scenarios };
    console.error(`delivery (${code}): the cron queueing ${count(CRON_REQUEUE)} due deliveries again…`);
    return { scenarios, cron: await cronScenario(loaded, migrations, vapid, cronRuns) };
  } finally {
    await loaded.dispose();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// 4. Before: the older commit in a worktree of its own
// ---------------------------------------------------------------------------------------------------------------

function git(args: string[], cwd = projectRoot): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
}

/** A worktree of `commit` under the system's temporary folder, sharing this checkout's node_modules (one lock). */
async function beforeWorktree(commit: string): Promise<{ dir: string; remove: () => Promise<void> }> {
  const full = git(['rev-parse', '--verify', `${commit}^{commit}`]);
  const dir = path.join(os.tmpdir(), `departures-board-before-${full.slice(0, 12)}`);
  if (existsSync(dir)) git(['worktree', 'remove', '--force', dir]);
  git(['worktree', 'add', '--detach', dir, full]);
  await symlink(path.join(projectRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return {
    dir,
    remove: async () => {
      await rm(path.join(dir, 'node_modules'), { force: true }); // the link, never what it points to
      git(['worktree', 'remove', '--force', dir]);
    },
  };
}

/** Runs `node <script> <args>` in `cwd` (the worktree's own benchmark), its stderr passed on; resolves stdout. */
function runNode(cwd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${args.join(' ')} exited ${code}\n${out}`)),
    );
  });
}

/** The older code's own end-to-end push benchmark (its run.ts `--push-only`, which builds its dist/ first). */
async function beforeEndToEnd(dir: string, sizes: readonly number[]): Promise<EndToEndRow[]> {
  const out = await runNode(dir, ['scripts/bench/run.ts', '--push-only', '--push-sizes', sizes.join(',')]);
  const rows: EndToEndRow[] = [];
  for (const line of out.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    // | subscriptions | first push s | last push s | pushes/s |
    if (cells.length !== 6 || !/^[\d,]+$/.test(cells[1] ?? '')) continue;
    const size = Number(cells[1]!.replaceAll(',', ''));
    rows.push({
      label: `${count(size)} push`,
      mix: false,
      size,
      firstSeconds: Number(cells[2]),
      lastSeconds: Number(cells[3]),
      perSecond: Number(cells[4]),
      duplicates: Number.NaN,
    });
  }
  if (rows.length !== sizes.length) throw new Error(`the older benchmark printed no table:\n${out}`);
  return rows;
}

// ---------------------------------------------------------------------------------------------------------------
// The section
// ---------------------------------------------------------------------------------------------------------------

export interface DeliveryOptions {
  sizes: number[];
  /** The commit before the rewrite, measured in a worktree; undefined for none. */
  before?: string | undefined;
  /** Also end to end: a mix of every channel at the smallest size. */
  mix?: boolean;
}

function endToEndTable(now: EndToEndRow[], before: EndToEndRow[] | undefined, beforeCommit: string | undefined) {
  const rows = now.map((row) => {
    const old = row.mix ? undefined : before?.find((candidate) => candidate.size === row.size);
    return [
      row.label,
      fixed(row.firstSeconds, 1),
      fixed(row.lastSeconds, 1),
      fixed(row.perSecond, 0),
      row.duplicates,
      old === undefined
        ? '–'
        : `${fixed(old.firstSeconds, 1)} / ${fixed(old.lastSeconds, 1)} / ${fixed(old.perSecond, 0)}`,
    ];
  });
  return table(
    [
      'subscribers',
      'first delivery s',
      'last delivery s',
      'deliveries/s',
      'second copies',
      `before (${beforeCommit ?? 'not run'}): first / last s / deliveries/s`,
    ],
    rows,
  );
}

const KIND_NAMES: Record<Kind, string> = {
  dispatch: 'dispatch',
  fanout: 'fan-out page',
  deliver: 'deliver batch',
  other: 'other',
};

function fits(ms: number) {
  return ms <= FREE_PLAN_CPU_MS ? 'yes' : 'no';
}

function queueTable(scenarios: QueueScenario[]) {
  const rows: (string | number)[][] = [];
  for (const scenario of scenarios) {
    if (scenario.channel === 'push')
      rows.push([
        scenario.code,
        scenario.channel,
        count(scenario.size),
        "a new build's dispatch (1 message)",
        1,
        fixed(scenario.dispatchMs),
        fixed(scenario.dispatchMs),
        fits(scenario.dispatchMs),
      ]);
    for (const kind of ['fanout', 'deliver'] as const) {
      const ofKind = scenario.invocations.filter((invocation) => invocation.kind === kind);
      if (ofKind.length === 0) continue;
      const ms = ofKind.map((invocation) => invocation.ms);
      const messages = median(ofKind.map((invocation) => invocation.messages));
      rows.push([
        scenario.code,
        scenario.channel,
        count(scenario.size),
        `${KIND_NAMES[kind]} (${messages} message${messages === 1 ? '' : 's'})`,
        ofKind.length,
        fixed(median(ms)),
        fixed(Math.max(...ms)),
        fits(Math.max(...ms)),
      ]);
    }
  }
  return table(
    ['code', 'channel', 'subscribers', 'invocation', 'invocations', 'median CPU ms', 'max CPU ms', '≤ 10 ms'],
    rows,
  );
}

function perSendTable(scenarios: QueueScenario[]) {
  const rows = scenarios.map((scenario) => {
    const full = scenario.invocations.filter((invocation) => invocation.kind === 'deliver' && invocation.sends > 0);
    const perMessage = median(full.map((invocation) => invocation.ms / invocation.messages));
    const perSend = median(full.map((invocation) => invocation.ms / invocation.sends));
    const sendsPerMessage = median(full.map((invocation) => invocation.sends / invocation.messages));
    const d1Calls = median(full.map((invocation) => invocation.d1Calls));
    return [
      scenario.code,
      scenario.channel,
      count(scenario.size),
      fixed(sendsPerMessage, 0),
      fixed(perMessage, 3),
      fixed(perSend, 3),
      Math.floor(FREE_PLAN_CPU_MS / perMessage),
      Math.floor(FREE_PLAN_CPU_MS / perSend),
      d1Calls,
      fixed(scenario.rowsWritten / scenario.sends, 1),
      fixed(scenario.d1Ms / scenario.sends, 3),
      fixed(scenario.totalMs / 1000, 1),
    ];
  });
  return table(
    [
      'code',
      'channel',
      'subscribers',
      'sends per message',
      'CPU ms per deliver message',
      'CPU ms per send',
      'deliver messages in 10 ms',
      'sends in 10 ms',
      'D1 calls per deliver batch',
      'D1 rows written per delivery',
      "SQLite's CPU ms per delivery (D1's work)",
      'CPU s for the whole event',
    ],
    rows,
  );
}

/** The Markdown section of `npm run bench -- --delivery`. */
export async function deliverySection({ sizes, before, mix = true }: DeliveryOptions): Promise<string> {
  const distDir = path.dirname(path.dirname(BUILT_WORKER_CONFIG));
  const migrations = path.join(projectRoot, 'migrations');
  const head = git(['rev-parse', '--short', 'HEAD']);
  const dirty = git(['status', '--porcelain', '--untracked-files=no', 'src', 'functions', 'migrations']) !== '';

  // In-process first: it needs only the build, and it is the quieter measurement.
  const now = await measureInProcess('now', distDir, migrations, sizes);

  const endToEnd: EndToEndRow[] = [];
  for (const size of sizes) {
    console.error(`delivery: end to end, ${count(size)} push subscribers…`);
    endToEnd.push(await endToEndOne(size, false));
  }
  if (mix) {
    console.error(`delivery: end to end, ${count(Math.min(...sizes))} subscribers of every channel…`);
    endToEnd.push(await endToEndOne(Math.min(...sizes), true));
  }

  let old: { scenarios: QueueScenario[] } | undefined;
  let oldEndToEnd: EndToEndRow[] | undefined;
  const notMeasured: string[] = [];
  if (before !== undefined) {
    const worktree = await beforeWorktree(before);
    try {
      console.error(`delivery (before): ${before}'s own push benchmark in ${worktree.dir} (builds its dist/)…`);
      oldEndToEnd = await beforeEndToEnd(worktree.dir, sizes);
      old = await measureInProcess(
        'before',
        path.join(worktree.dir, 'dist'),
        path.join(worktree.dir, 'migrations'),
        sizes,
      );
    } finally {
      await worktree.remove();
    }
    notMeasured.push(
      `end to end before: push only (${before}'s benchmark wrote push subscriptions only)`,
      `a cron that queues due deliveries again before: none existed (${before} carried retries in delayed queue messages, and a lost message was lost)`,
    );
  }

  const cron = now.cron!;
  const scenarios = [...now.scenarios, ...(old?.scenarios ?? [])];
  return [
    `### Delivery at scale (code ${head}${dirty ? ' with uncommitted changes' : ''}${before ? `; before: ${before}` : ''})`,
    '',
    "End to end: one reset of a new build, from the build's first request (no cron) until the last delivery reached a receiver on loopback; `wrangler dev`'s local D1 and queue, this machine's cores shared by workerd, wrangler and the receiver.",
    '',
    endToEndTable(endToEnd, oldEndToEnd, before),
    '',
    `CPU per queue invocation (the built worker's \`queue()\` in-process, batches of at most ${MAX_BATCH_SIZE} messages of what it queued itself; D1's own work and the receivers left out; the Workers Free plan allows ${FREE_PLAN_CPU_MS} ms):`,
    '',
    queueTable(scenarios),
    '',
    "CPU per deliver message and per send (medians over the deliver batches), and what fits 10 ms; D1 calls per deliver batch (a `batch` counts once) and rows written per delivery (SQLite's `total_changes()` over the whole event, dispatch to last outcome; D1 also counts index entries):",
    '',
    perSendTable(scenarios),
    '',
    `The minute cron, the whole \`scheduled()\` invocation (watcher with no sources, dispatch, recovery), median and max of ${cron.runs} runs after 3 warm-up runs:`,
    '',
    table(
      ['cron run', 'median CPU ms', 'max CPU ms', '≤ 10 ms'],
      [
        ['nothing due', fixed(cron.idleMedianMs), fixed(cron.idleMaxMs), fits(cron.idleMaxMs)],
        [
          `${count(cron.requeued)} due deliveries queued again (${count(cron.messages)} deliver messages)`,
          fixed(cron.requeueMedianMs),
          fixed(cron.requeueMaxMs),
          fits(cron.requeueMaxMs),
        ],
      ],
    ),
    ...(notMeasured.length > 0 ? ['', 'Not measured:', '', ...notMeasured.map((line) => `- ${line}`)] : []),
  ].join('\n');
}
