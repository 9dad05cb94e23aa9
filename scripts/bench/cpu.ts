// The CPU time of the built worker's `fetch`, measured in-process: the production bundle (dist/server) is
// imported into this Node process (the same V8 as workerd's), its `cloudflare:workers` import answered by a
// loader hook, its ASSETS binding served from the built files in memory. `process.cpuUsage()` around one
// request counts the CPU that request cost, which is what the Workers Free plan limits (10 ms per request).
import { spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { registerHooks } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { SOURCE_REPORT_KEY } from '../../src/core/sources.ts';
import { MCP_GET_STATUS_BODY } from '../lib/mixed-load.ts';
import { assetsBinding, memoryKv, OPEN_RATE_LIMITER, readBuiltFiles, type BuiltFiles } from '../lib/built-files.ts';
import { summarizeProfile, type CpuProfile } from './cpu-profile.ts';

// Only the bundle's `cloudflare:workers` import is Workers-specific. Its `env` is the bindings this benchmark
// gives the worker (the handlers receive them as `env` anyway; the on-demand pages read them from the module).
const WORKERS_MODULE = [
  'export const env = globalThis.__benchWorkerEnv ?? {};',
  'export const waitUntil = () => {}; export default {};',
].join(' ');
registerHooks({
  resolve: (specifier, context, next) =>
    specifier.startsWith('cloudflare:')
      ? { url: `data:text/javascript,${encodeURIComponent(WORKERS_MODULE)}`, shortCircuit: true }
      : next(specifier, context),
});

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** An MCP client's first message. */
const MCP_INITIALIZE_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1.0.0' } },
});
/** Every page people open, in both languages. */
const PAGE_PATHS = ['/', '/zh', '/provider_a', '/zh/provider_b', '/tracker'];

interface Worker {
  fetch(request: Request, env: unknown, context: unknown): Promise<Response>;
}

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

/** A current report of four sources, one failing, as a watch run writes it (the handler parses it per request). */
/** A build's files in memory, and the bindings the worker gets over them. */
async function builtWorkerInput(distDir: string) {
  const files: BuiltFiles = await readBuiltFiles(path.join(distDir, 'client'));
  const env = { ASSETS: assetsBinding(files), MCP_RATE_LIMITER: OPEN_RATE_LIMITER, SOURCE_HEALTH: benchSourceHealth() };
  (globalThis as { __benchWorkerEnv?: unknown }).__benchWorkerEnv = env;
  return { files, env };
}

function benchSourceHealth(): KVNamespace {
  const source = (name: string, ok: boolean) => ({
    provider: 'provider_a',
    name,
    url: `https://feeds.example/${name}.rss`,
    checkedAt: new Date().toISOString(),
    ok,
    error: ok ? null : 'answered HTTP 500',
    itemsSeen: ok ? 20 : 0,
  });
  const report = {
    checkedAt: new Date().toISOString(),
    sources: [source('a', true), source('b', true), source('c', true), source('d', false)],
  };
  return memoryKv({ [SOURCE_REPORT_KEY]: JSON.stringify(report) });
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
  // The pages, rendered on every request here: Node has no Cache API, so these are the per-minute cache's misses.
  ...PAGE_PATHS.map((path) => ({ name: `GET ${path} (page, rendered)`, path })),
];

const cpuMs = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};
const threadMs = (start: NodeJS.CpuUsage) => {
  const used = process.threadCpuUsage(start);
  return (used.user + used.system) / 1000;
};

const executionContext = { waitUntil: () => undefined, passThroughOnException: () => undefined, props: {} };

async function timeRequest(
  worker: Worker,
  env: { ASSETS: Fetcher },
  target: CpuTarget,
  files: BuiltFiles,
): Promise<{ ms: number; mainThreadMs: number; status: number }> {
  const targetPath = typeof target.path === 'string' ? target.path : target.path(files);
  const request = new Request(new URL(targetPath, 'http://127.0.0.1:4321'), target.init);
  const start = process.cpuUsage();
  const startOfThread = process.threadCpuUsage();
  const response = await worker.fetch(request, env, executionContext);
  await response.arrayBuffer();
  return { ms: cpuMs(start), mainThreadMs: threadMs(startOfThread), status: response.status };
}

/**
 * A fresh copy of the bundle: new module URLs, so nothing is cached from an earlier import (a new isolate).
 * `importing` wraps the import alone (the profiler's), not the copying.
 */
async function freshWorker(
  serverDir: string,
  importing: <T>(work: () => Promise<T>) => Promise<T> = (work) => work(),
): Promise<{ worker: Worker; importMs: number; dir: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'departures-board-isolate-'));
  await cp(serverDir, dir, { recursive: true });
  const start = process.cpuUsage();
  const module = await importing(
    () => import(pathToFileURL(path.join(dir, 'entry.mjs')).href) as Promise<{ default: Worker }>,
  );
  return { worker: module.default, importMs: cpuMs(start), dir };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
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
  ...CPU_TARGETS.filter((target) => target.name.endsWith('(page, rendered)')),
];

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
  for (const [index, target] of COLD_TARGETS.entries()) {
    const samples = Array.from({ length: coldRuns }, () => coldStartInChild(distDir, index));
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
  if (profileDir !== undefined) coldStartInChild(distDir, 0, profileDir);
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

interface ColdSample {
  ms: number;
  mainThreadMs: number;
  importMs: number;
  status: number;
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
async function measureColdStart(distDir: string, targetIndex: number, profileDir?: string): Promise<ColdSample> {
  const target = COLD_TARGETS[targetIndex]!;
  const { files, env } = await builtWorkerInput(distDir);
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
  return { ms: sample.ms, mainThreadMs: sample.mainThreadMs, importMs: fresh.importMs, status: sample.status };
}

const COLD_FLAG = '--cold-start';

function coldStartInChild(distDir: string, targetIndex: number, profileDir?: string): ColdSample {
  const args = [
    fileURLToPath(import.meta.url),
    COLD_FLAG,
    distDir,
    String(targetIndex),
    ...(profileDir ? [profileDir] : []),
  ];
  const child = spawnSync(process.execPath, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (child.status !== 0) throw new Error(`the cold-start run failed (exit ${child.status})`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as ColdSample;
}

if (process.argv[2] === COLD_FLAG)
  console.log(JSON.stringify(await measureColdStart(process.argv[3]!, Number(process.argv[4]), process.argv[5])));
