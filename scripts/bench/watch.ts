// The CPU time of one run of the worker's minute cron polling 10 sources (docs/watch.md): the built worker's
// `scheduled()` imported into this process, as cpu.ts does for `fetch` (cpu.ts's loader hook answers its
// `cloudflare:workers` import). The whole invocation is measured: the watcher, then the push dispatch that follows it
// in the same invocation (its queue takes messages and drops them, VAPID keys are made for the run: it runs as
// deployed). What runs outside the worker in production costs this process next to nothing
// here, as the built files do in cpu.ts: the feed hosts and the review channel answer `fetch` from memory (with
// ETags and 304s, tests/support/feed-server.ts), and D1 is an in-memory SQLite with the migrations (sqlite-d1.ts),
// whose own CPU time is left out. So `process.cpuUsage()` counts the worker's own work: reading the configuration
// and the state, parsing and classifying, building drafts and messages, and making its calls.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { FeedDocuments, rssFeed } from '../../tests/support/feed-server.ts';
import { generateVapidSecrets } from '../../src/node/local-vapid.ts';
import { PROPOSALS_PER_RUN, READ_BUDGET_PER_RUN, REVIEW_SENDS_PER_RUN } from '../../src/server/watch/run-shares.ts';
import { assetsBinding, memoryKv, OPEN_RATE_LIMITER, readBuiltFiles } from '../lib/built-files.ts';
import { median } from './cpu.ts';
import { d1Cpu, sqliteD1 } from './sqlite-d1.ts';

export const WATCH_BENCH_SOURCES = 10;
const POSTS_PER_FEED = 20;
const MINUTE = 60_000;
/** The Workers Free plan's CPU time per invocation, a cron's included. */
const FREE_PLAN_CPU_MS = 10;
const FEED_ORIGIN = 'https://feeds.bench.test';
const REVIEW_WEBHOOK = 'https://hooks.slack.com/services/T000/B000/bench';

interface Worker {
  scheduled(controller: ScheduledController, env: unknown, context: unknown): Promise<void>;
}

const cpuMs = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};
const context = { waitUntil: () => undefined, passThroughOnException: () => undefined, props: {} };

type Post = { link: string; title: string; publishedAt: string; html: string };

/** A post's body as a social account bridged to RSS gives it: a paragraph of HTML with a link. */
const body = (text: string) =>
  `<p>${text} Thanks for your patience while we worked on capacity this week &amp; for every report you sent. <a href="https://status.example/history">Status history</a></p>`;

/** Ten accounts of twenty posts (about 9 KB a feed), one in twenty relevant (a reset), as on a real account. */
function benchFeeds(publishedAt: string) {
  const documents = new FeedDocuments();
  const posts: Post[][] = Array.from({ length: WATCH_BENCH_SOURCES }, (_, feed) =>
    Array.from({ length: POSTS_PER_FEED }, (_, index) => ({
      link: `https://posts.provider-a.example/@bench${feed}/${1990000000000000000n + BigInt(feed * 1000 + index)}`,
      title:
        index === 0
          ? `Usage limits have been reset for everyone (${feed}).`
          : `We shipped a new command-line release, number ${index}, with fixes.`,
      html: body(index === 0 ? 'Limits are back to full.' : 'Release notes are in the changelog.'),
      publishedAt,
    })),
  );
  for (const [feed, list] of posts.entries()) documents.serve(`/feed${feed}.rss`, rssFeed(list));
  let reviews = 0;
  const fetchFromMemory = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    if (request.url === REVIEW_WEBHOOK) {
      reviews += 1;
      return new Response('ok');
    }
    const answer = documents.answer(new URL(request.url).pathname, {
      'if-none-match': request.headers.get('if-none-match') ?? undefined,
      'if-modified-since': request.headers.get('if-modified-since') ?? undefined,
    });
    return new Response(answer.status === 304 ? null : answer.body, { status: answer.status, headers: answer.headers });
  };
  return {
    fetchFromMemory,
    /** The characters of all feeds: what a first run has to read. */
    size: () => posts.reduce((total, list) => total + rssFeed(list.slice(0, POSTS_PER_FEED)).length, 0),
    reviews: () => reviews,
    post(feed: number, at: string) {
      const list = posts[feed]!;
      list.unshift({
        link: `https://posts.provider-a.example/@bench${feed}/${1991000000000000000n + BigInt(feed * 1000 + list.length)}`,
        title: `Limits are back to full for every plan (${list.length}).`,
        html: body('Every plan starts fresh.'),
        publishedAt: at,
      });
      documents.serve(`/feed${feed}.rss`, rssFeed(list.slice(0, POSTS_PER_FEED)));
    },
  };
}

export interface WatchBenchRow {
  run: string;
  medianMs: number;
  maxMs: number;
  runs: number;
}

/** Measures the built worker of `distDir` (a build's output folder). */
export async function measureWatchCron(distDir: string, repetitions = 25): Promise<WatchBenchRow[]> {
  const db = sqliteD1();
  const workerDir = await mkdtemp(path.join(os.tmpdir(), 'departures-board-watch-bench-'));
  let minute = Math.floor(Date.now() / MINUTE) * MINUTE;
  const feeds = benchFeeds(new Date(minute - 2 * 86_400_000).toISOString());
  const realFetch = globalThis.fetch;
  globalThis.fetch = feeds.fetchFromMemory as typeof fetch;
  try {
    const files = new Map(await readBuiltFiles(path.join(distDir, 'client')));
    const config = JSON.parse(new TextDecoder().decode(files.get('/data/watch.json'))) as Record<string, unknown>;
    config['sources'] = {
      provider_a: Array.from({ length: WATCH_BENCH_SOURCES }, (_, feed) => ({
        account: `bench${feed}`,
        feed: `${FEED_ORIGIN}/feed${feed}.rss`,
      })),
      provider_b: [],
      provider_c: [],
    };
    config['repositoryUrl'] = 'https://github.com/example-owner/departures-board';
    files.set('/data/watch.json', new TextEncoder().encode(JSON.stringify(config)));
    const env = {
      ASSETS: assetsBinding(files),
      DB: db,
      SOURCE_HEALTH: memoryKv(),
      MCP_RATE_LIMITER: OPEN_RATE_LIMITER,
      REVIEW_WEBHOOK_URL: REVIEW_WEBHOOK,
      // The dispatch's queue: taken and dropped here (the consumers' work is theirs, measured in docs/delivery.md).
      DELIVERY_QUEUE: { send: async () => undefined, sendBatch: async () => undefined },
      ...generateVapidSecrets(),
    };
    await cp(path.join(distDir, 'server'), workerDir, { recursive: true });
    const worker = ((await import(pathToFileURL(path.join(workerDir, 'entry.mjs')).href)) as { default: Worker })
      .default;
    const run = async () => {
      minute += MINUTE;
      const controller = { scheduledTime: minute, cron: '* * * * *', noRetry: () => undefined };
      const start = process.cpuUsage();
      const d1Before = d1Cpu.spentMs;
      await worker.scheduled(controller, env, context);
      // SQLite's own work is D1's, done outside the worker in production.
      return cpuMs(start) - (d1Cpu.spentMs - d1Before);
    };
    const count = async (where: string) =>
      (await db.prepare(`SELECT count(*) AS n FROM watch_drafts WHERE ${where}`).first<number>('n')) ?? 0;
    /** What the run did, checked: the drafts D1 holds, and of them those whose message was sent. */
    const expectDrafts = async (stored: number, sent: number) => {
      const found = [await count('true'), await count("review_state = 'sent'")];
      if (found[0] !== stored || found[1] !== sent)
        throw new Error(`expected ${stored} drafts, ${sent} sent for review; D1 holds ${found[0]}, ${found[1]} sent`);
    };

    // The dispatch ran in the same invocation: its mark of the first dispatch (docs/delivery.md) is in D1.
    const dispatched = async () =>
      ((await db
        .prepare("SELECT count(*) AS n FROM dispatch_state WHERE name = 'first_dispatch'")
        .first<number>('n')) ?? 0) === 1;
    const rows: WatchBenchRow[] = [];
    const measure = async (name: string, before: () => void, check: () => Promise<void>) => {
      const samples: number[] = [];
      for (let repetition = 0; repetition < repetitions + 5; repetition += 1) {
        before();
        const ms = await run();
        await check();
        if (repetition >= 5) samples.push(ms); // the first runs warm the JIT, as a busy isolate is
      }
      rows.push({ run: name, medianMs: median(samples), maxMs: Math.max(...samples), runs: samples.length });
    };

    // More than a run reads: the first run reads its share (the budget), stores its share of drafts, sends its share.
    const kib = Math.round(feeds.size() / 1024);
    const firstRunDrafts = Math.min(
      PROPOSALS_PER_RUN,
      Math.max(1, Math.floor(READ_BUDGET_PER_RUN / (feeds.size() / WATCH_BENCH_SOURCES))),
    );
    await measure(
      `a deployment's first run: ${WATCH_BENCH_SOURCES} feeds of ${POSTS_PER_FEED} posts (${kib} KiB) answer 200; ${READ_BUDGET_PER_RUN / 1024} KiB read, ${firstRunDrafts} new drafts stored, ${REVIEW_SENDS_PER_RUN} sent`,
      () => db.empty(),
      async () => {
        await expectDrafts(firstRunDrafts, REVIEW_SENDS_PER_RUN);
        if (!(await dispatched())) throw new Error('the cron ran no push dispatch after the watcher');
      },
    );
    // The runs after it take up the rest (not measured here): every post settled, every message sent.
    for (let more = 0; more < 2 * WATCH_BENCH_SOURCES; more += 1) await run();
    await expectDrafts(WATCH_BENCH_SOURCES, WATCH_BENCH_SOURCES);
    await measure(
      `every minute after: ${WATCH_BENCH_SOURCES} conditional requests, all answered 304`,
      () => undefined,
      () => expectDrafts(WATCH_BENCH_SOURCES, WATCH_BENCH_SOURCES),
    );
    let posted = WATCH_BENCH_SOURCES;
    await measure(
      `a new post: ${WATCH_BENCH_SOURCES - 1} feeds answer 304, 1 answers 200 with it; 1 draft stored and sent`,
      () => feeds.post(posted % WATCH_BENCH_SOURCES, new Date(minute).toISOString()),
      async () => {
        posted += 1;
        await expectDrafts(posted, posted);
      },
    );
    return rows;
  } finally {
    globalThis.fetch = realFetch;
    await rm(workerDir, { recursive: true, force: true });
  }
}

/** The Markdown section of `npm run bench`. */
export async function watchSection(distDir: string): Promise<string> {
  const rows = await measureWatchCron(distDir);
  return [
    `### The minute cron: CPU time of one invocation, the watcher polling ${WATCH_BENCH_SOURCES} sources and the push dispatch after it (built worker, in-process)`,
    '',
    `The Workers Free plan allows ${FREE_PLAN_CPU_MS} ms of CPU per invocation, a cron's included.`,
    '',
    '| run | median ms | worst ms | runs |',
    '| --- | --- | --- | --- |',
    ...rows.map((row) => `| ${row.run} | ${row.medianMs.toFixed(2)} | ${row.maxMs.toFixed(2)} | ${row.runs} |`),
  ].join('\n');
}
