// `npm run bench`: HTTP load against the production build in workerd, growth with synthetic histories, the
// provenance pass over a synthetic git history, and sizes. Prints Markdown tables (docs/performance.md keeps the
// latest). Options:
//   --sizes 1000,10000,100000   synthetic history sizes      --seconds 5   load per endpoint
//   --connections 16            concurrent connections      --skip-load / --skip-growth
//   --load-only                 only the HTTP load: every endpoint in three rounds of a third of --seconds each
//   --cpu-only                  only the CPU time of the built worker per request, at each size
//   --cold-runs 5               cold starts per kind of first request (median and worst of them); the same number
//                               per journal state (no D1, an empty journal, 20 confirmed events) for the journal's table
//   --cpu-profile DIR           also a V8 CPU profile of one cold GET /api/status, written to DIR and summarized
//   --dist DIR                  with --cpu-only: measure this build (astro build --outDir DIR) instead of building
//   --delivery                  only the delivery wing at scale (scripts/bench/delivery.ts): end to end in wrangler dev,
//                               CPU per queue invocation and per cron run, and the same for the code before the rewrite
//   --delivery-sizes 10000,100000   subscriber counts        --skip-delivery
//   --delivery-before cc3970b   the commit measured as "before" (a worktree under /tmp); `none` to skip it. With
//                               --delivery it defaults to cc3970b (the parent of the rewrite); in a full run, to none
//   --confirm                   only a reviewer's confirm to the last delivery (scripts/bench/delivery.ts): the review
//                               page's POST in wrangler dev, then every channel's subscribers; also run by --delivery
//   --confirm-subscribers 1000  how many subscribers of provider_a resets (a mix of every channel) it tells
//   (--push-only, --push-sizes and --skip-push are the older names of --delivery, --delivery-sizes, --skip-delivery)
//   --test-runs 5               only `npm test` that many times in a row: wall time, CPU, verdict of each
//   --watch-only                only the CPU time of one minute-cron invocation: the watcher polling 10 sources, then the dispatch
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { boardFromSummaries, deriveBoard } from '../../src/core/board.ts';
import { buildEdgeDataset, recentEvents, summariesOf } from '../../src/core/dataset.ts';
import { measureWorkerBundle } from '../lib/bundle-size.ts';
import { BUILT_WORKER_CONFIG, buildSite, freePort, startServer } from '../lib/local-server.ts';
import { MCP_GET_STATUS_BODY } from '../lib/mixed-load.ts';
import { loadEndpoint, type LoadResult, type LoadTarget } from './http-load.ts';
import {
  COLD_TARGETS,
  CPU_TARGETS,
  JOURNAL_EVENTS,
  measureJournalCold,
  measureWorkerCpu,
  median,
  type CpuFigures,
  type JournalColdFigures,
} from './cpu.ts';
import { FREE_ROWS_READ_PER_DAY, measureJournalReads, rowsPerDay } from './journal-reads.ts';
import { provenanceSection } from './provenance.ts';
import { BENCH_SITE_URL, confirmSection, deliverySection } from './delivery.ts';
import { syntheticEvents, writeSyntheticTree } from './synthetic-events.ts';
import { measureWorkerdCold, type WorkerdColdFigures } from './workerd-cold.ts';
import { testRunsSection } from './test-runs.ts';
import { watchSection } from './watch.ts';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000,100000' },
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '16' },
    'skip-load': { type: 'boolean', default: false },
    'load-only': { type: 'boolean', default: false },
    'skip-growth': { type: 'boolean', default: false },
    'cpu-only': { type: 'boolean', default: false },
    'cold-runs': { type: 'string', default: '5' },
    'cpu-profile': { type: 'string' },
    dist: { type: 'string' },
    delivery: { type: 'boolean', default: false },
    'delivery-sizes': { type: 'string' },
    'delivery-before': { type: 'string' },
    'skip-delivery': { type: 'boolean', default: false },
    confirm: { type: 'boolean', default: false },
    'confirm-subscribers': { type: 'string', default: '1000' },
    'push-sizes': { type: 'string' },
    'push-only': { type: 'boolean', default: false },
    'skip-push': { type: 'boolean', default: false },
    'test-runs': { type: 'string' },
    'watch-only': { type: 'boolean', default: false },
  },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const kib = (bytes: number) => (bytes / 1024).toFixed(1);
const table = (header: string[], rows: (string | number)[][]) =>
  [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');

/** Serves the current build with MCP's rate limit raised, so the load measures the server, not the limiter. */
async function serveForLoad(port: number) {
  const config = JSON.parse(await readFile(BUILT_WORKER_CONFIG, 'utf8')) as {
    ratelimits: { simple: { limit: number } }[];
  };
  for (const limiter of config.ratelimits) limiter.simple.limit = 1_000_000_000;
  const benchConfig = path.join(path.dirname(BUILT_WORKER_CONFIG), 'wrangler.bench.json');
  await writeFile(benchConfig, JSON.stringify(config));
  return startServer({ port, workerConfig: benchConfig });
}

/** The bytes of every file under a folder. */
async function folderBytes(folder: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += (await stat(path.join(entry.parentPath, entry.name))).size;
  }
  return total;
}

/** Times a function over many calls after a warm-up: microseconds per call. */
function microseconds(fn: () => unknown, minimumMs = 300): number {
  for (let index = 0; index < 50; index += 1) fn();
  let calls = 0;
  const start = performance.now();
  while (performance.now() - start < minimumMs) {
    for (let index = 0; index < 20; index += 1) fn();
    calls += 20;
  }
  return ((performance.now() - start) * 1000) / calls;
}

/** The endpoints under load: the first two are the static files every other is a ratio to. */
const LOAD_TARGETS: LoadTarget[] = [
  { name: 'static asset /favicon.svg (baseline)', path: '/favicon.svg' },
  // A static file of the build about the size of a page's HTML (autocannon asks for no compression).
  { name: "static asset /og.png (baseline of a page's size)", path: '/og.png' },
  { name: 'prerendered /api/timeline', path: '/api/timeline' },
  { name: 'filtered /api/timeline?provider=provider_b&limit=50', path: '/api/timeline?provider=provider_b&limit=50' },
  { name: '/api/status', path: '/api/status' },
  { name: '/index.md', path: '/index.md' },
  {
    name: '/api/ics',
    path: '/api/ics?provider=provider_a&resetAt=2026-11-21T18:30:00%2B08:00&weeklyAt=2026-11-23T09:00:00Z',
  },
  { name: '/feed.xml', path: '/feed.xml' },
  // The pages through the per-minute page cache (src/server/page-cache.ts): at most one render a minute. Each beside
  // its own template, a static file of the build with the page's bytes but for the slots.
  ...(
    [
      ['/', '/data/page-templates/en/board'],
      ['/provider_a', '/data/page-templates/en/provider_a'],
      ['/zh', '/data/page-templates/zh/board'],
    ] as const
  ).flatMap(([page, ownFile]) => [
    { name: `static file ${ownFile} (the page's template)`, path: ownFile },
    { name: `page ${page} (per-minute cache)`, path: page, ownFile },
  ]),
  {
    name: 'MCP tools/call get_status',
    path: '/mcp',
    method: 'POST',
    body: MCP_GET_STATUS_BODY,
    headers: { 'content-type': 'application/json' },
  },
];
const LOAD_ROUNDS = 3;

/**
 * Each endpoint in turn, in three rounds of a third of `--seconds` each (after a second of warm-up), so that a slow
 * spell of the shared machine falls on every endpoint alike; the median round of each is its figure.
 */
async function loadSection(): Promise<string> {
  const port = await freePort();
  await buildSite({ siteUrl: `http://127.0.0.1:${port}` });
  const server = await serveForLoad(port);
  const rounds = new Map<LoadTarget, LoadResult[]>(LOAD_TARGETS.map((target) => [target, []]));
  const roundSeconds = Math.max(1, Math.round(seconds / LOAD_ROUNDS));
  try {
    for (let round = 0; round < LOAD_ROUNDS; round += 1) {
      for (const target of LOAD_TARGETS) {
        await loadEndpoint(server.baseUrl, target, 1, connections); // warm-up
        rounds.get(target)!.push(await loadEndpoint(server.baseUrl, target, roundSeconds, connections));
      }
    }
  } finally {
    await server.stop();
  }
  const results = LOAD_TARGETS.map((target) => medianRound(rounds.get(target)!));
  const [favicon, pageSized] = results.map((result) => result.requestsPerSecond);
  return [
    `### HTTP load (${LOAD_ROUNDS} rounds of ${roundSeconds} s per endpoint, ${connections} connections, autocannon in a second process)`,
    '',
    table(
      [
        'endpoint',
        'KiB',
        'req/s',
        'each round',
        'ratio to favicon',
        "ratio to a page's size",
        'ratio to its own file',
        'p50 ms',
        'p99 ms',
        'errors',
        'non-2xx',
      ],
      results.map((result, index) => [
        result.name,
        kib(result.bytesPerAnswer),
        result.requestsPerSecond.toFixed(0),
        rounds
          .get(LOAD_TARGETS[index]!)!
          .map((one) => one.requestsPerSecond.toFixed(0))
          .join(' / '),
        (result.requestsPerSecond / favicon!).toFixed(2),
        (result.requestsPerSecond / pageSized!).toFixed(2),
        ownFileRatio(LOAD_TARGETS[index]!, rounds),
        result.p50Ms,
        result.p99Ms,
        result.errors,
        result.non2xx,
      ]),
    ),
  ].join('\n');
}

/**
 * A page's rate as a ratio to its own file's: the median of the rounds' ratios, each round of the page against the
 * file's round just before it, so that a slow spell of the machine falls on both sides of a ratio rather than on one
 * side of a ratio of medians. Empty for every row but a page's.
 */
function ownFileRatio(target: LoadTarget, rounds: ReadonlyMap<LoadTarget, readonly LoadResult[]>): string {
  const file = LOAD_TARGETS.find((other) => other.path === target.ownFile);
  if (file === undefined) return '';
  const fileRounds = rounds.get(file)!;
  const ratios = rounds
    .get(target)!
    .map((page, round) => page.requestsPerSecond / fileRounds[round]!.requestsPerSecond);
  return median(ratios).toFixed(2);
}

/** The round with the median rate; errors and non-2xx answers summed over every round, so that none is hidden. */
function medianRound(results: readonly LoadResult[]): LoadResult {
  const median = [...results].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[
    Math.floor(results.length / 2)
  ]!;
  const sum = (pick: (result: LoadResult) => number) => results.reduce((total, result) => total + pick(result), 0);
  return { ...median, errors: sum((result) => result.errors), non2xx: sum((result) => result.non2xx) };
}

async function sizeSection(): Promise<string> {
  await buildSite({ siteUrl: 'http://127.0.0.1:4321' });
  const bundle = await measureWorkerBundle(await mkdtemp(path.join(os.tmpdir(), 'departures-board-bundle-')));
  const port = await freePort();
  const server = await startServer({ port, workerConfig: BUILT_WORKER_CONFIG });
  const rows: (string | number)[][] = [];
  try {
    for (const page of ['/', '/provider_a', '/tracker', '/api']) {
      const html = await (await fetch(`${server.baseUrl}${page}`)).text();
      const bytes = { html: gzipSync(html).length, css: 0, js: 0 };
      for (const [, asset, kind] of html.matchAll(/(?:href|src)="(\/_astro\/[^"]+\.(css|js))"/g)) {
        bytes[kind as 'css' | 'js'] += gzipSync(
          Buffer.from(await (await fetch(`${server.baseUrl}${asset}`)).arrayBuffer()),
        ).length;
      }
      rows.push([page, kib(bytes.html), kib(bytes.css), kib(bytes.js), kib(bytes.html + bytes.css + bytes.js)]);
    }
  } finally {
    await server.stop();
  }
  const data = (await stat('dist/client/data/board.json')).size;
  return [
    '### Sizes (sample data)',
    '',
    `Worker bundle (wrangler deploy --dry-run): ${bundle.rawKiB} KiB raw, ${bundle.gzipKiB} KiB gzip. Edge data set /data/board.json: ${kib(data)} KiB.`,
    '',
    table(['page', 'HTML KiB gz', 'CSS KiB gz', 'JS KiB gz', 'total KiB gz'], rows),
  ].join('\n');
}

async function growthSection(sizes: number[]): Promise<string> {
  const rows: (string | number)[][] = [];
  const now = new Date();
  for (const size of sizes) {
    const root = await mkdtemp(path.join(os.tmpdir(), `departures-board-synthetic-${size}-`));
    await writeSyntheticTree(root, size, now);
    const port = await freePort();
    const buildStart = performance.now();
    await buildSite({ siteUrl: `http://127.0.0.1:${port}`, eventsDir: root });
    const buildSeconds = (performance.now() - buildStart) / 1000;
    const boardBytes = (await stat('dist/client/data/board.json')).size;
    const historyBytes = await folderBytes('dist/client/data/events');

    const server = await startServer({ port, workerConfig: BUILT_WORKER_CONFIG });
    const coldStart = performance.now();
    const first = await fetch(`${server.baseUrl}/api/status`);
    const coldMs = performance.now() - coldStart;
    await first.arrayBuffer();
    await server.stop();

    const events = syntheticEvents(size, now);
    const dataset = buildEdgeDataset(events, now);
    const later = new Date(now.getTime() + 3_600_000);
    const statusUs = microseconds(() => boardFromSummaries(summariesOf(dataset), later));
    const timelineUs = microseconds(() => recentEvents(dataset, 'provider_b', 50));
    const fullUs = microseconds(() => deriveBoard(events, later), 200);
    rows.push([
      size.toLocaleString('en'),
      buildSeconds.toFixed(1),
      kib(boardBytes),
      kib(historyBytes),
      coldMs.toFixed(0),
      statusUs.toFixed(1),
      timelineUs.toFixed(2),
      fullUs.toFixed(0),
    ]);
    await rm(root, { recursive: true, force: true });
  }
  await buildSite({ siteUrl: 'http://127.0.0.1:4321' }); // leave the build of the real content behind
  return [
    '### Growth (synthetic histories)',
    '',
    table(
      [
        'events',
        'build s',
        '/data/board.json KiB',
        'whole history files KiB',
        'cold first /api/status ms',
        'status derivation µs (edge)',
        'filtered timeline µs (edge)',
        'status from the whole history µs (for comparison)',
      ],
      rows,
    ),
  ].join('\n');
}

/** The start and the cold targets' first requests in workerd (scripts/bench/workerd-cold.ts), with progress. */
async function measureInWorkerd(distDir: string, runs: number): Promise<WorkerdColdFigures> {
  const figures = await measureWorkerdCold(distDir, runs, undefined, (done, all) =>
    process.stderr.write(`\rcpu: the start and first requests in workerd, ${done}/${all} fresh workerd…`),
  );
  process.stderr.write('\n');
  return figures;
}

/** The built worker's CPU time per request, in-process and in workerd, at each history size (scripts/bench/cpu.ts). */
async function cpuSection(sizes: number[]): Promise<string> {
  const options = { coldRuns: Number(values['cold-runs']), profileDir: values['cpu-profile'] };
  const measured: [string, CpuFigures][] = [];
  const inWorkerd: WorkerdColdFigures[] = [];
  const journal: [string, JournalColdFigures[]][] = [];
  if (values.dist !== undefined) {
    console.error(`cpu: measuring the build in ${values.dist}…`);
    measured.push([path.basename(values.dist), await measureWorkerCpu(values.dist, options)]);
    inWorkerd.push(await measureInWorkerd(values.dist, options.coldRuns));
    journal.push([path.basename(values.dist), await measureJournalCold(values.dist, options)]);
  }
  for (const size of values.dist === undefined ? sizes : []) {
    const root = await mkdtemp(path.join(os.tmpdir(), `departures-board-cpu-${size}-`));
    await writeSyntheticTree(root, size, new Date());
    const outDir = await mkdtemp(path.join(os.tmpdir(), `departures-board-cpu-dist-${size}-`));
    console.error(`cpu: building ${size.toLocaleString('en')} events…`);
    await buildSite({ siteUrl: 'http://127.0.0.1:4321', eventsDir: root, outDir });
    console.error(`cpu: measuring ${size.toLocaleString('en')} events…`);
    measured.push([size.toLocaleString('en'), await measureWorkerCpu(outDir, options)]);
    inWorkerd.push(await measureInWorkerd(outDir, options.coldRuns));
    console.error(`cpu: the journal's cost at ${size.toLocaleString('en')} events…`);
    journal.push([size.toLocaleString('en'), await measureJournalCold(outDir, options)]);
    await rm(root, { recursive: true, force: true });
    await rm(outDir, { recursive: true, force: true });
  }
  const runs = options.coldRuns;
  const headline = measured.map(([name, figures], index) => {
    const cold = figures.cold[0]!;
    const { start } = inWorkerd[index]!;
    return [
      name,
      cold.medianMs.toFixed(2),
      cold.maxMs.toFixed(2),
      cold.mainThreadMedianMs.toFixed(2),
      `${cold.importMs.toFixed(1)} (worst ${cold.importMaxMs.toFixed(1)})`,
      `${start.medianMs.toFixed(1)} (worst ${start.maxMs.toFixed(1)})`,
    ];
  });
  const figure = ({ medianMs, maxMs, status }: { medianMs: number; maxMs: number; status: number }) =>
    `${medianMs.toFixed(2)} / ${maxMs.toFixed(2)}${status === 200 ? '' : ` (${status})`}`;
  const otherCold = COLD_TARGETS.map((target, index) => [
    target.name,
    ...measured.flatMap(([, figures], build) => [
      figure(figures.cold[index]!),
      figure(inWorkerd[build]!.first[index]!),
    ]),
  ]);
  const rows = CPU_TARGETS.map((target, index) => [
    target.name,
    ...measured.map(([, figures]) => {
      const warm = figures.warm[index]!;
      return `${warm.medianMs.toFixed(3)} / ${warm.p95Ms.toFixed(3)}${warm.status === 200 ? '' : ` (${warm.status})`}`;
    }),
  ]);
  const heads = (what: string) => measured.map(([name]) => `${name}${values.dist ? '' : ' events'}: ${what}`);
  return [
    '### CPU time of the built worker per request (in-process, process.cpuUsage; the first requests in workerd too)',
    '',
    table(
      [
        'events',
        `cold first /api/status ms (median of ${runs})`,
        `cold, worst of ${runs}`,
        'main thread only, median',
        'module evaluation ms, median (not per request)',
        'the same in workerd (scripts/bench/workerd-cold.ts)',
      ],
      headline,
    ),
    '',
    table(
      ['cold first request', ...heads(`median / worst of ${runs} ms`).flatMap((head) => [head, `${head}, in workerd`])],
      otherCold,
    ),
    '',
    table(['warm request', ...heads('median / p95 ms')], rows),
    '',
    journalTable(journal, runs),
    '',
    await journalReadsTable(),
  ].join('\n');
}

/** D1's rows read per request by the journal's read, and what they come to a day against the Free plan's limit. */
async function journalReadsTable(): Promise<string> {
  console.error("cpu: the journal's rows read in wrangler's local D1…");
  const rates = [1, 10, 100];
  const share = (rows: number) =>
    `${(rows / 1e6).toLocaleString('en', { maximumFractionDigits: 2 })} M (${Math.round((rows / FREE_ROWS_READ_PER_DAY) * 100)} %)`;
  const rows = (await measureJournalReads()).map((reads) => [
    reads.state,
    reads.changedRows,
    reads.journalRows,
    reads.reportRows,
    ...rates.map((rate) => share(rowsPerDay(reads.journalRows, rate))),
  ]);
  return [
    `D1 rows read per request (\`meta.rows_read\` of wrangler's local D1), and the journal's read a day at a steady rate of event-dependent requests with the journal unchanged, against the Workers Free plan's ${(FREE_ROWS_READ_PER_DAY / 1e6).toFixed(0)} million a day:`,
    '',
    table(
      [
        'journal',
        "journal's read, an isolate's first or the first after a change: rows",
        "journal's read, every other request: rows",
        "watcher report's read (the board page): rows",
        ...rates.map((rate) => `journal a day at ${rate} request${rate === 1 ? '' : 's'}/s (of Free)`),
      ],
      rows,
    ),
  ].join('\n');
}

/** The API's budgets for a cold first request with the journal (issue 38): an empty journal, and 20 events. */
const JOURNAL_BUDGET_MS = { empty: 5, events: 10 } as const;

/**
 * The cold first request with no state database (no journal), an empty journal and 20 confirmed events, and the D1
 * calls each made: docs/performance.md, "The journal's cost". The budgets hold for the API routes (the median);
 * the pages (the page cache's misses) and MCP are reported beside them.
 */
function journalTable(measured: [string, JournalColdFigures[]][], runs: number): string {
  const cell = ({ medianMs, maxMs, status }: { medianMs: number; maxMs: number; status: number }) =>
    `${medianMs.toFixed(2)} / ${maxMs.toFixed(2)}${status === 200 ? '' : ` (${status})`}`;
  const rows = measured.flatMap(([name, figures]) =>
    figures.map(({ target, byMode: { none, empty, events } }) => {
      const api = !target.includes('(page') && !target.includes('/mcp');
      const verdict = api
        ? `${empty.medianMs <= JOURNAL_BUDGET_MS.empty ? 'yes' : 'no'} / ${events.medianMs <= JOURNAL_BUDGET_MS.events ? 'yes' : 'no'}`
        : 'reported';
      return [
        name,
        target,
        cell(none),
        cell(empty),
        cell(events),
        `${empty.mainThreadMedianMs.toFixed(2)} / ${events.mainThreadMedianMs.toFixed(2)}`,
        `${none.d1Calls} / ${empty.d1Calls} / ${events.d1Calls}`,
        verdict,
      ];
    }),
  );
  return [
    `Cold first request with the journal of confirmed events (median / worst of ${runs} ms, each sample a process of its own, the three states alternating; SQLite's own CPU left out):`,
    '',
    table(
      [
        'events',
        'cold first request',
        'journal: none (no D1)',
        'empty',
        `${JOURNAL_EVENTS} events`,
        'main thread only, median: empty / 20',
        'D1 calls: none / empty / 20',
        `median within ${JOURNAL_BUDGET_MS.empty} ms empty / ${JOURNAL_BUDGET_MS.events} ms with 20 (API)`,
      ],
      rows,
    ),
  ].join('\n');
}

const cpus = os.cpus();
console.log(`## Benchmark ${new Date().toISOString()}\n`);
console.log(
  `Machine: ${cpus.length} cores (${cpus[0]?.model ?? 'unknown'}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}.\n`,
);
const sizes = values.sizes.split(',').map(Number);
const deliverySizes = (values['delivery-sizes'] ?? values['push-sizes'] ?? '10000,100000').split(',').map(Number);
const deliveryOnly = values.delivery || values['push-only'];
/** The commit before the delivery wing (src/server/push and its tables), measured as "before" in a worktree. */
const REWRITE_PARENT = 'cc3970b';
const beforeOption = values['delivery-before'] ?? (deliveryOnly ? REWRITE_PARENT : 'none');
const deliveryBefore = beforeOption === 'none' ? undefined : beforeOption;
if (values['test-runs'] !== undefined) {
  console.log(`${await testRunsSection(Number(values['test-runs']))}\n`);
  process.exit(0);
}
const confirmSubscribers = Number(values['confirm-subscribers']);
if (values.confirm) {
  await buildSite({ siteUrl: BENCH_SITE_URL });
  console.log(`${await confirmSection(confirmSubscribers)}\n`);
  process.exit(0);
}
if (deliveryOnly) {
  await buildSite({ siteUrl: BENCH_SITE_URL });
  console.log(`${await deliverySection({ sizes: deliverySizes, before: deliveryBefore })}\n`);
  console.log(`${await confirmSection(confirmSubscribers)}\n`);
  process.exit(0);
}
/** The last build's output folder (dist/), whose worker the watch section runs. */
const builtDist = path.dirname(path.dirname(BUILT_WORKER_CONFIG));
if (values['watch-only']) {
  await buildSite({ siteUrl: 'http://127.0.0.1:4321' });
  console.log(`${await watchSection(builtDist)}\n`);
  process.exit(0);
}
if (values['cpu-only']) {
  console.log(`${await cpuSection(sizes)}\n`);
  process.exit(0);
}
if (values['load-only']) {
  console.log(`${await loadSection()}\n`);
  process.exit(0);
}
if (!values['skip-load']) console.log(`${await loadSection()}\n`);
console.log(`${await sizeSection()}\n`);
console.log(`${await cpuSection(sizes)}\n`);
if (!values['skip-growth']) console.log(`${await growthSection(sizes)}\n`);
console.log(`${await provenanceSection([10_000])}\n`);
if (!values['skip-delivery'] && !values['skip-push']) {
  console.log(`${await deliverySection({ sizes: deliverySizes, before: deliveryBefore })}\n`);
  console.log(`${await confirmSection(confirmSubscribers)}\n`);
}
console.log(`${await watchSection(builtDist)}\n`);
