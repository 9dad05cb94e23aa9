// The CPU time of the built worker's `fetch`, measured in-process: the production bundle (dist/server) is
// imported into this Node process (the same V8 as workerd's), its `cloudflare:workers` import answered by a
// loader hook, its ASSETS binding served from the built files in memory. `process.cpuUsage()` around one
// request counts the CPU that request cost, which is what the Workers Free plan limits (10 ms per request).
// The cold start is also measured with a state database (sqlite-d1.ts) whose journal of confirmed events is empty or
// holds 20 events, beside none: every event-dependent output reads the live journal once per request.
import { spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Event } from '../../src/core/schemas.ts';
import { buildSourceReport, SOURCE_REPORT_KEY, type SourceCheck, storedSourceReport } from '../../src/core/sources.ts';
import { confirmDraft } from '../../src/server/journal/decide.ts';
import { MCP_GET_STATUS_BODY } from '../lib/mixed-load.ts';
import { assetsBinding, memoryKv, OPEN_RATE_LIMITER, readBuiltFiles, type BuiltFiles } from '../lib/built-files.ts';
import { summarizeProfile, type CpuProfile } from './cpu-profile.ts';
import { d1Cpu, sqliteD1 } from './sqlite-d1.ts';
import { syntheticEvents } from './synthetic-events.ts';
import { PREFIXED_LANGUAGES } from '../../src/core/languages.ts';
import { PROVIDERS } from '../../src/core/vocabulary.ts';
import { type BuiltWorker, EXECUTION_CONTEXT, prepareForBuiltWorker, setWorkerEnv } from '../lib/worker-in-node.ts';

prepareForBuiltWorker();
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** An MCP client's first message. */
const MCP_INITIALIZE_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1.0.0' } },
});
/**
 * Every page people open: the board in every language of the site (src/core/languages.ts), a provider page in
 * English and in each other language (the providers taken in turn), and the tracker.
 */
const PAGE_PATHS = [
  '/',
  ...PREFIXED_LANGUAGES.map(({ prefix }) => `/${prefix}`),
  '/provider_a',
  ...PREFIXED_LANGUAGES.map(({ prefix }, index) => `/${prefix}/${PROVIDERS[(index + 1) % PROVIDERS.length]}`),
  '/tracker',
];

export interface CpuTarget {
  name: string;
  /** The request's path, or a function of the built files (a path naming an event of the build). */
  path: string | ((files: BuiltFiles) => string);
  init?: RequestInit;
}

/** The newest event of the build's edge data set, by way of its page address: any published id does. */
function someEventPath(files: BuiltFiles): string {
  const board = JSON.parse(new TextDecoder().decode(files.get('/data/board.json'))) as {
    providers: Record<string, { recent: { id: string }[] }>;
  };
  const event = Object.values(board.providers).flatMap((provider) => provider.recent)[0];
  return `/api/events/${event?.id ?? 'no-event-in-this-build'}`;
}

/**
 * The state database a cold start is given: none (no `DB` binding: the worker has no journal, the figures before the
 * journal), an empty journal (D1 bound and migrated, no confirmed event: what every deployment has most of the
 * time), or a journal of `JOURNAL_EVENTS` live events.
 */
export type JournalMode = 'none' | 'empty' | 'events';
export const JOURNAL_MODES: readonly JournalMode[] = ['none', 'empty', 'events'];
export const JOURNAL_EVENTS = 20;

/**
 * `JOURNAL_EVENTS` events of the synthetic generator's mix (kinds, providers, scopes), announced one after another
 * between `afterMs` and `now` and verified, as a reviewer confirms them: after the build's newest event, so that
 * each folds exactly (`journalFit`) as a confirmed event must.
 */
export function journalBenchEvents(afterMs: number, now: Date): Event[] {
  const step = Math.max(1, Math.floor((now.getTime() - afterMs) / (JOURNAL_EVENTS + 1)));
  return syntheticEvents(JOURNAL_EVENTS, now).map((event, index): Event => {
    const id = `journal-bench-${index}`;
    return {
      ...event,
      id,
      announcedAt: new Date(afterMs + step * (index + 1)).toISOString(),
      effectiveAt: null,
      sourceUrl: `https://posts.${event.provider.replace('_', '-')}.example/${id}`,
      verified: true,
    };
  });
}

/** Each event confirmed as the review page confirms it: a draft row, then the worker's own `confirmDraft`. */
export async function confirmEvents(db: D1Database, events: readonly Event[], now: Date): Promise<void> {
  for (const event of events) {
    await db
      .prepare(
        `INSERT INTO watch_drafts (id, provider, source_url, file, found_at, review_next_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?5)`,
      )
      .bind(event.id, event.provider, event.sourceUrl, JSON.stringify({ ...event, verified: false }), event.announcedAt)
      .run();
    const outcome = await confirmDraft({ DB: db }, event.id, event, now);
    if (outcome !== 'recorded') throw new Error(`the journal event ${event.id} was not confirmed: ${outcome}`);
  }
}

/** `JOURNAL_EVENTS` events confirmed after the build's newest event (or its build time, if later). */
async function confirmJournalEvents(db: D1Database, files: BuiltFiles, now: Date): Promise<void> {
  const board = JSON.parse(new TextDecoder().decode(files.get('/data/board.json'))) as {
    builtAt: string;
    providers: Record<string, { recent: Event[] }>;
  };
  const newest = Math.max(
    Date.parse(board.builtAt),
    ...Object.values(board.providers).flatMap((provider) =>
      provider.recent.map((event) => Date.parse(event.announcedAt)),
    ),
  );
  await confirmEvents(db, journalBenchEvents(newest, now), now);
}

/** A build's files in memory, and the bindings the worker gets over them (with `DB` unless the journal is 'none'). */
async function builtWorkerInput(distDir: string, journal: JournalMode = 'none') {
  const files: BuiltFiles = await readBuiltFiles(path.join(distDir, 'client'));
  const env: Record<string, unknown> & { ASSETS: Fetcher } = {
    ASSETS: assetsBinding(files),
    MCP_RATE_LIMITER: OPEN_RATE_LIMITER,
    SOURCE_HEALTH: memoryKv(benchSourceHealthValues()),
  };
  if (journal !== 'none') {
    const db = sqliteD1();
    if (journal === 'events') await confirmJournalEvents(db, files, new Date());
    env['DB'] = db;
  }
  setWorkerEnv(env);
  return { files, env };
}

/** The watch run's stored report the cold requests read (`SOURCE_HEALTH`), as a watch run stores it: marked, so that the page trusts it. */
export function benchSourceHealthValues(): Record<string, string> {
  const source = (name: string, ok: boolean): SourceCheck => ({
    provider: 'provider_a',
    name,
    url: `https://feeds.example/${name}.rss`,
    checkedAt: new Date().toISOString(),
    ok,
    error: ok ? null : 'answered HTTP 500',
    itemsSeen: ok ? 20 : 0,
  });
  const report = buildSourceReport(
    [source('a', true), source('b', true), source('c', true), source('d', false)],
    new Date(),
  );
  return { [SOURCE_REPORT_KEY]: storedSourceReport(report) };
}

export const CPU_TARGETS: CpuTarget[] = [
  { name: 'GET /api/status', path: '/api/status' },
  { name: 'GET /api/status/provider_b', path: '/api/status/provider_b' },
  { name: 'GET /api/status.txt', path: '/api/status.txt' },
  { name: 'GET /api/timeline (prerendered)', path: '/api/timeline' },
  { name: 'GET /api/timeline?provider=provider_b&limit=50', path: '/api/timeline?provider=provider_b&limit=50' },
  { name: 'GET /api/timeline.csv?provider=provider_a', path: '/api/timeline.csv?provider=provider_a' },
  { name: 'GET /feed.xml?provider=provider_a', path: '/feed.xml?provider=provider_a' },
  { name: 'GET /feed.json', path: '/feed.json' },
  { name: 'GET /index.md', path: '/index.md' },
  { name: 'GET /zh/index.md', path: '/zh/index.md' },
  {
    name: 'GET /api/ics',
    path: '/api/ics?provider=provider_a&resetAt=2026-11-21T18:30:00%2B08:00&weeklyAt=2026-11-23T09:00:00Z',
  },
  { name: 'GET /calendar.ics (built announcements, estimates at the edge)', path: '/calendar.ics' },
  { name: 'GET /badge/provider_a.svg', path: '/badge/provider_a.svg' },
  { name: 'GET /api/events/<id>', path: someEventPath },
  { name: 'GET /api/sources', path: '/api/sources' },
  { name: 'GET /api/forecast', path: '/api/forecast' },
  { name: 'GET /api/forecast/track-record (prerendered)', path: '/api/forecast/track-record' },
  {
    name: 'POST /mcp tools/call get_status',
    path: '/mcp',
    init: {
      method: 'POST',
      body: MCP_GET_STATUS_BODY,
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': '2001:db8::7' },
    },
  },
  {
    name: 'POST /mcp tools/list',
    path: '/mcp',
    init: {
      method: 'POST',
      body: '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': '2001:db8::8' },
    },
  },
  {
    name: 'POST /mcp initialize',
    path: '/mcp',
    init: {
      method: 'POST',
      body: MCP_INITIALIZE_BODY,
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': '2001:db8::9' },
    },
  },
  { name: 'GET /api//timeline?provider=x (odd path: 308)', path: '/api//timeline?provider=x' },
  { name: 'GET /openapi.json (a built file through the table)', path: '/openapi.json' },
  // The pages, made on every request here (Node has no Cache API: these are the per-minute cache's misses), filled
  // from their templates while the journal is empty and rendered by Astro while it holds events.
  ...PAGE_PATHS.map((path) => ({ name: `GET ${path} (page, cache miss)`, path })),
];

const cpuMs = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};
const threadMs = (start: NodeJS.CpuUsage) => {
  const used = process.threadCpuUsage(start);
  return (used.user + used.system) / 1000;
};

async function timeRequest(
  worker: BuiltWorker,
  env: unknown,
  target: CpuTarget,
  files: BuiltFiles,
): Promise<{ ms: number; mainThreadMs: number; status: number; d1Calls: number }> {
  const targetPath = typeof target.path === 'string' ? target.path : target.path(files);
  const request = new Request(new URL(targetPath, 'http://127.0.0.1:4321'), target.init);
  const d1Before = { ...d1Cpu };
  const start = process.cpuUsage();
  const startOfThread = process.threadCpuUsage();
  const response = await worker.fetch(request, env, EXECUTION_CONTEXT);
  await response.arrayBuffer();
  const ms = cpuMs(start);
  const mainThreadMs = threadMs(startOfThread);
  // SQLite's own CPU (the in-process stand-in for D1, sqlite-d1.ts) is D1's work, done outside the worker in
  // production: it runs on this thread within the request, and is left out of both figures.
  const sqliteMs = d1Cpu.spentMs - d1Before.spentMs;
  return {
    ms: ms - sqliteMs,
    mainThreadMs: mainThreadMs - sqliteMs,
    status: response.status,
    d1Calls: d1Cpu.calls - d1Before.calls,
  };
}

/**
 * A fresh copy of the bundle: new module URLs, so nothing is cached from an earlier import (a new isolate).
 * `importing` wraps the import alone (the profiler's), not the copying.
 */
async function freshWorker(
  serverDir: string,
  importing: <T>(work: () => Promise<T>) => Promise<T> = (work) => work(),
): Promise<{ worker: BuiltWorker; importMs: number; dir: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'departures-board-isolate-'));
  await cp(serverDir, dir, { recursive: true });
  const start = process.cpuUsage();
  const module = await importing(
    () => import(pathToFileURL(path.join(dir, 'entry.mjs')).href) as Promise<{ default: BuiltWorker }>,
  );
  return { worker: module.default, importMs: cpuMs(start), dir };
}

/** The middle value of `values` (the upper of the two middle ones for an even count). */
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

/**
 * The cold first request of each kind: the status (the figure the Workers Free plan's 10 ms is held against), a
 * list of events, MCP and a page. Each kind loads what its routes need on first use (data files, libraries).
 */
export const COLD_TARGETS: CpuTarget[] = [
  CPU_TARGETS[0]!,
  CPU_TARGETS.find((target) => target.name === 'GET /api/timeline?provider=provider_b&limit=50')!,
  CPU_TARGETS.find((target) => target.name === 'POST /mcp tools/call get_status')!,
  CPU_TARGETS.find((target) => target.name === 'POST /mcp initialize')!,
  ...CPU_TARGETS.filter((target) => target.name.endsWith('(page, cache miss)')),
];

/**
 * The cold first requests measured with no state database, an empty journal and 20 events (docs/performance.md,
 * "The journal's cost"): the status (the API's headline), the three outputs the edge writes while the journal holds
 * one of their events (a feed, a calendar, the default timeline: built files otherwise), the board and a provider
 * page (rendered: the page cache's miss), and MCP's first two requests.
 */
export const JOURNAL_COLD_TARGETS: CpuTarget[] = [
  CPU_TARGETS[0]!,
  { name: 'GET /feed.xml', path: '/feed.xml' },
  { name: 'GET /calendar.ics', path: '/calendar.ics' },
  { name: 'GET /api/timeline', path: '/api/timeline' },
  CPU_TARGETS.find((target) => target.name === 'GET / (page, cache miss)')!,
  CPU_TARGETS.find((target) => target.name === 'GET /provider_a (page, cache miss)')!,
  CPU_TARGETS.find((target) => target.name === 'POST /mcp initialize')!,
  CPU_TARGETS.find((target) => target.name === 'POST /mcp tools/call get_status')!,
];

/** A cold target by its index in COLD_TARGETS (the child's older argument) or its name. */
function coldTarget(spec: string): CpuTarget {
  const target = /^\d+$/.test(spec)
    ? COLD_TARGETS[Number(spec)]
    : [...COLD_TARGETS, ...JOURNAL_COLD_TARGETS].find((candidate) => candidate.name === spec);
  if (target === undefined) throw new Error(`no cold target ${spec}`);
  return target;
}

export interface ColdFigures {
  target: string;
  status: number;
  medianMs: number;
  maxMs: number;
  /** The isolate's own thread only (process.threadCpuUsage): V8's background threads left out. */
  mainThreadMedianMs: number;
  importMs: number;
  importMaxMs: number;
}

export interface CpuFigures {
  /** COLD_TARGETS in order: the first is the headline (GET /api/status). */
  cold: ColdFigures[];
  warm: { target: string; status: number; medianMs: number; p95Ms: number }[];
}

export interface CpuOptions {
  coldRuns?: number;
  warmRuns?: number;
  /** Where to write a CPU profile of one cold GET /api/status (module evaluation and request). */
  profileDir?: string | undefined;
}

/** Cold start (first request of a fresh module graph, data loaded by it) and warm requests, per target. */
export async function measureWorkerCpu(
  distDir: string,
  { coldRuns = 5, warmRuns = 200, profileDir }: CpuOptions = {},
): Promise<CpuFigures> {
  const { files, env } = await builtWorkerInput(distDir);
  const cold: ColdFigures[] = [];
  for (const target of COLD_TARGETS) {
    const samples = Array.from({ length: coldRuns }, () => coldStartInChild(distDir, target.name));
    cold.push({
      target: target.name,
      status: samples[0]!.status,
      medianMs: median(samples.map((sample) => sample.ms)),
      maxMs: Math.max(...samples.map((sample) => sample.ms)),
      mainThreadMedianMs: median(samples.map((sample) => sample.mainThreadMs)),
      importMs: median(samples.map((sample) => sample.importMs)),
      importMaxMs: Math.max(...samples.map((sample) => sample.importMs)),
    });
  }
  if (profileDir !== undefined) coldStartInChild(distDir, COLD_TARGETS[0]!.name, 'none', profileDir);
  const { worker: warmWorker, dir } = await freshWorker(path.join(distDir, 'server'));
  const warm = [];
  for (const target of CPU_TARGETS) {
    for (let run = 0; run < 20; run += 1) await timeRequest(warmWorker, env, target, files); // JIT warm-up
    const samples: number[] = [];
    let status = 0;
    for (let run = 0; run < warmRuns; run += 1) {
      const result = await timeRequest(warmWorker, env, target, files);
      samples.push(result.ms);
      status = result.status;
    }
    warm.push({ target: target.name, status, medianMs: median(samples), p95Ms: percentile(samples, 0.95) });
  }
  await rm(dir, { recursive: true, force: true });
  return { cold, warm };
}

export interface JournalColdFigures {
  target: string;
  byMode: Record<
    JournalMode,
    { status: number; medianMs: number; maxMs: number; mainThreadMedianMs: number; d1Calls: number }
  >;
}

/**
 * The cold first request of each of JOURNAL_COLD_TARGETS with no state database, an empty journal and 20 events: the
 * three alternate sample by sample (each in a process of its own), so that a busy moment of a shared machine falls
 * on all three alike. SQLite's own CPU is left out (sqlite-d1.ts); `d1Calls` is the most any sample made.
 */
export async function measureJournalCold(distDir: string, { coldRuns = 5 }: CpuOptions = {}) {
  const figures: JournalColdFigures[] = [];
  for (const target of JOURNAL_COLD_TARGETS) {
    const samples = new Map<JournalMode, ColdSample[]>(JOURNAL_MODES.map((mode) => [mode, []]));
    for (let run = 0; run < coldRuns; run += 1)
      for (const mode of JOURNAL_MODES) samples.get(mode)!.push(coldStartInChild(distDir, target.name, mode));
    const byMode = Object.fromEntries(
      [...samples].map(([mode, taken]) => [
        mode,
        {
          status: taken[0]!.status,
          medianMs: median(taken.map((sample) => sample.ms)),
          maxMs: Math.max(...taken.map((sample) => sample.ms)),
          mainThreadMedianMs: median(taken.map((sample) => sample.mainThreadMs)),
          d1Calls: Math.max(...taken.map((sample) => sample.d1Calls)),
        },
      ]),
    ) as JournalColdFigures['byMode'];
    figures.push({ target: target.name, byMode });
  }
  return figures;
}

interface ColdSample {
  ms: number;
  mainThreadMs: number;
  importMs: number;
  status: number;
  /** D1 calls the first request made (sqlite-d1.ts: a batch counts once). */
  d1Calls: number;
}

/** CPU profiles (V8's sampling profiler through the inspector) of the work it is handed, kept in order. */
function profiler(session: Session | undefined) {
  const profiles: CpuProfile[] = [];
  const profiled = async <T>(work: () => Promise<T>): Promise<T> => {
    if (session === undefined) return work();
    await session.post('Profiler.start');
    const result = await work();
    profiles.push((await session.post('Profiler.stop')).profile as CpuProfile);
    return result;
  };
  return { profiled, profiles };
}

/**
 * One cold start, in a process of its own so that no earlier copy's heap or garbage is counted: a throwaway copy
 * first (Node's own first use of Request, URL and the like is not the worker's cost), then a fresh copy's first
 * request, with its data loaded by that request. With `profileDir`, a CPU profile of the fresh copy's module
 * evaluation and first request is written there and summarized on stderr (the profiler slows what it samples:
 * its figures are shares, not the CPU time of an unprofiled run).
 */
async function measureColdStart(
  distDir: string,
  target: CpuTarget,
  journal: JournalMode,
  profileDir?: string,
): Promise<ColdSample> {
  const { files, env } = await builtWorkerInput(distDir, journal);
  const throwaway = await freshWorker(path.join(distDir, 'server'));
  await timeRequest(throwaway.worker, env, target, files);
  let session: Session | undefined;
  if (profileDir !== undefined) {
    session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    // Every 50 µs: the inspector's default of 1 ms would take a handful of samples of a request.
    await session.post('Profiler.setSamplingInterval', { interval: 50 });
  }
  const { profiled, profiles } = profiler(session);
  const fresh = await freshWorker(path.join(distDir, 'server'), profiled);
  // A fresh isolate's heap holds its own module only; this process also holds every built file and the
  // throwaway copy. Collecting first keeps a collection of that process-only garbage out of the figure, and the
  // pause after it lets the collector's background threads (concurrent sweeping) finish before the sample.
  collectGarbage();
  await sleep(100);
  const sample = await profiled(() => timeRequest(fresh.worker, env, target, files));
  await Promise.all([throwaway.dir, fresh.dir].map((dir) => rm(dir, { recursive: true, force: true })));
  if (profileDir !== undefined) {
    await mkdir(profileDir, { recursive: true });
    const names = ['cold-module-evaluation', 'cold-first-request'];
    for (const [index, profile] of profiles.entries()) {
      const name = names[index]!;
      const file = path.join(profileDir, `${name}.cpuprofile`);
      await writeFile(file, JSON.stringify(profile));
      console.error(`${file}\n${summarizeProfile(profile, fresh.dir)}\n`);
    }
  }
  return {
    ms: sample.ms,
    mainThreadMs: sample.mainThreadMs,
    importMs: fresh.importMs,
    status: sample.status,
    d1Calls: sample.d1Calls,
  };
}

const COLD_FLAG = '--cold-start';
const JOURNAL_FLAG = '--journal=';

/**
 * `node scripts/bench/cpu.ts --cold-start DIST TARGET [PROFILE_DIR] [--journal=none|empty|events]`: one cold sample
 * as JSON on the last line. TARGET is an index into COLD_TARGETS or a target's name.
 */
function coldStartInChild(distDir: string, target: string, journal: JournalMode = 'none', profileDir?: string) {
  const args = [
    fileURLToPath(import.meta.url),
    COLD_FLAG,
    distDir,
    target,
    ...(profileDir ? [profileDir] : []),
    `${JOURNAL_FLAG}${journal}`,
  ];
  const child = spawnSync(process.execPath, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (child.status !== 0) throw new Error(`the cold-start run failed (exit ${child.status})`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as ColdSample;
}

if (process.argv[2] === COLD_FLAG) {
  const journalArg = process.argv.find((arg) => arg.startsWith(JOURNAL_FLAG));
  const [distDir, target, profileDir] = process.argv.slice(3).filter((arg) => arg !== journalArg);
  const journal = (journalArg?.slice(JOURNAL_FLAG.length) ?? 'none') as JournalMode;
  if (!JOURNAL_MODES.includes(journal)) throw new Error(`--journal is one of ${JOURNAL_MODES.join(', ')}`);
  console.log(JSON.stringify(await measureColdStart(distDir!, coldTarget(target!), journal, profileDir)));
}
