import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { etagOf, readBuiltFiles } from '../lib/built-files.ts';
import { wranglerDevApi } from '../lib/local-server.ts';
import { benchSourceHealthValues, COLD_TARGETS, type CpuTarget, median } from './cpu.ts';
import { readProcess } from './process-cpu.ts';

/**
 * The built worker's start and first request in workerd, the runtime the platform runs. The in-process figures
 * (cpu.ts) are Node's: its import also resolves URLs, reads and decodes each file and runs a loader hook per module,
 * which workerd, holding the modules in memory, does not. CPU is read from Linux's per-thread scheduler counters
 * (`/proc/<pid>/task/<tid>/schedstat`, nanoseconds) of the new workerd processes around each request, all threads
 * (V8's background compiler and collector included, as in `process.cpuUsage()`). Linux only.
 *
 * Each sample is a workerd of its own, started by wrangler's dev server API over a copy of the bundle with a probe
 * entry, asked in order:
 * - `/warm`: the first Intl formatters (ICU's first load, which a workerd process that has run an isolate before has
 *   paid), and the bindings the worker gets, made as cpu.ts makes them: the built files in memory as `ASSETS` (the
 *   platform's asset server costs the worker no CPU, so the local one, which runs in the same process, may not
 *   either), an open MCP limiter and the watch run's stored report in a KV in memory;
 * - `/empty`: an empty module's import (what a dynamic import and a request cost by themselves);
 * - `/worker`: the built entry's import. The start is `/worker` less `/empty`;
 * - `/noop`, then `/first?target=…`: the target's request handed to the entry, its body read. The first request is
 *   `/first` less `/noop`. No Cache API (cpu.ts's figure is the page cache's miss, with nothing to put it in: the
 *   local Cache API runs in the same process as well).
 *
 * The bundle's `env` import from `cloudflare:workers` (the on-demand pages read their bindings so) is pointed at the
 * probe's bindings in the copy, as cpu.ts's loader hook answers it in Node.
 */

const PROBE = 'cold-probe.mjs';
const EMPTY = 'cold-probe-empty.mjs';
const WORKERS_MODULE = 'cold-probe-workers.mjs';
const ASSETS_MODULE = 'cold-probe-assets.mjs';
/** The probe's requests run one after another; this long after each, its background work has finished. */
const SETTLE_MS = 300;
/** How the bundle imports its bindings (minified); the copy imports the probe's instead. */
const ENV_IMPORT = /import\{env as ([\w$]+)\}from"cloudflare:workers"/g;

const probeSource = (entry: string) => `
import { env } from './${WORKERS_MODULE}';
let worker;
export default {
  async fetch(request, _env, ctx) {
    const url = new URL(request.url);
    switch (url.pathname) {
      case '/warm': {
        new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' }).format(0);
        new Intl.RelativeTimeFormat('en').format(-1, 'day');
        new Intl.NumberFormat('en').format(1.5);
        new Intl.PluralRules('en').select(1);
        const { files, kv } = await import('./${ASSETS_MODULE}');
        const encoder = new TextEncoder();
        const assets = new Map(Object.entries(files).map(([file, [etag, text]]) => [file, [etag, encoder.encode(text)]]));
        Object.assign(env, {
          ASSETS: {
            async fetch(input, init) {
              const asked = new Request(input, init);
              const found = assets.get(new URL(asked.url).pathname);
              if (found === undefined) return new Response('Not Found', { status: 404 });
              const [etag, bytes] = found;
              if (asked.headers.get('If-None-Match') === etag) return new Response(null, { status: 304, headers: { ETag: etag } });
              return new Response(bytes, { headers: { ETag: etag, 'Cache-Control': 'public, max-age=0, must-revalidate' } });
            },
          },
          MCP_RATE_LIMITER: { limit: async () => ({ success: true }) },
          SOURCE_HEALTH: { get: async (key) => kv[key] ?? null },
        });
        Object.defineProperty(globalThis, 'caches', { value: undefined, configurable: true });
        return new Response('warm');
      }
      case '/empty':
        await import('./${EMPTY}');
        return new Response('imported');
      case '/worker':
        worker = (await import(${JSON.stringify(`./${entry}`)})).default;
        return new Response('imported');
      case '/noop':
        return new Response('noop');
      case '/first': {
        const target = JSON.parse(url.searchParams.get('target'));
        const response = await worker.fetch(new Request(new URL(target.path, 'http://127.0.0.1:4321'), target.init), env, ctx);
        await response.arrayBuffer();
        return new Response(String(response.status));
      }
    }
    return new Response('no such probe path', { status: 404 });
  },
};
`;

/** CPU nanoseconds of every thread of `pid`, in milliseconds. */
async function processCpuMs(pid: number): Promise<number> {
  let nanoseconds = 0;
  for (const task of await readdir(`/proc/${pid}/task`)) {
    const stat = await readFile(`/proc/${pid}/task/${task}/schedstat`, 'utf8').catch(() => '0');
    nanoseconds += Number(stat.split(' ')[0]);
  }
  return nanoseconds / 1e6;
}

/** The workerd processes that are children of this process. */
async function childWorkerds(): Promise<number[]> {
  const pids = (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry));
  const found = await Promise.all(
    pids.map(async (pid) => {
      const read = await readProcess(pid);
      return read?.name === 'workerd' && read.parent === process.pid ? Number(pid) : null;
    }),
  );
  return found.filter((pid) => pid !== null);
}

interface Compatibility {
  date: string;
  flags: string[];
}

/** A target whose request is known without the built files (every cold target's is). */
export type ColdTarget = CpuTarget & { path: string };

interface Launch {
  startMs: number;
  firstMs: number;
  status: number;
}

/** One fresh workerd: the entry's import, then `target`'s request as the isolate's first. */
async function oneLaunch(bundleDir: string, compatibility: Compatibility, target: ColdTarget): Promise<Launch> {
  const { unstable_startWorker } = await wranglerDevApi();
  const before = new Set(await childWorkerds());
  const worker = await unstable_startWorker({
    name: 'cold-probe',
    entrypoint: path.join(bundleDir, PROBE),
    compatibilityDate: compatibility.date,
    compatibilityFlags: compatibility.flags,
    build: { bundle: false, moduleRules: [{ type: 'ESModule', globs: ['**/*.mjs'] }] },
    dev: { server: { hostname: '127.0.0.1', port: 0 }, inspector: false, logLevel: 'error', watch: false },
  });
  try {
    await worker.ready;
    // `ready` is the proxy's; the worker's own workerd may start after it, and surely has once `/warm` is answered.
    const warm = await worker.fetch('http://cold-probe/warm');
    if (!warm.ok) throw new Error(`/warm answered ${warm.status}: ${(await warm.text()).slice(0, 300)}`);
    await warm.arrayBuffer();
    await sleep(SETTLE_MS);
    // The worker's workerd and the one of wrangler's proxy in front of it: the proxy's share is the same for every
    // request, so it leaves the differences.
    const pids = (await childWorkerds()).filter((pid) => !before.has(pid));
    if (pids.length !== 2)
      throw new Error(`found ${pids.length} new workerd processes, not the worker's and the proxy's`);
    const cpuMs = async () => (await Promise.all(pids.map(processCpuMs))).reduce((sum, ms) => sum + ms, 0);
    const timed = async (pathAndQuery: string) => {
      const start = await cpuMs();
      const response = await worker.fetch(`http://cold-probe${pathAndQuery}`);
      const body = await response.text();
      if (!response.ok) throw new Error(`${pathAndQuery} answered ${response.status}: ${body.slice(0, 300)}`);
      await sleep(SETTLE_MS);
      return { ms: (await cpuMs()) - start, body };
    };
    const empty = await timed('/empty');
    const imported = await timed('/worker');
    const noop = await timed('/noop');
    const first = await timed(`/first?target=${encodeURIComponent(JSON.stringify(target))}`);
    return { startMs: imported.ms - empty.ms, firstMs: first.ms - noop.ms, status: Number(first.body) };
  } finally {
    await worker.dispose();
  }
}

/** A copy of the bundle in `distDir/server` with the probe beside it, and the bundle's compatibility settings. */
async function probeBundle(distDir: string): Promise<{ bundleDir: string; compatibility: Compatibility }> {
  const serverDir = path.join(distDir, 'server');
  const config = JSON.parse(await readFile(path.join(serverDir, 'wrangler.json'), 'utf8')) as {
    main: string;
    compatibility_date: string;
    compatibility_flags?: string[];
  };
  const bundleDir = await mkdtemp(path.join(os.tmpdir(), 'departures-board-cold-probe-'));
  await cp(serverDir, bundleDir, {
    recursive: true,
    // Without its wrangler.json, which wrangler would read beside the entry (the assets, the bindings).
    filter: (source) => !source.endsWith('.map') && path.basename(source) !== 'wrangler.json',
  });
  let envImports = 0;
  for (const entry of await readdir(bundleDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.mjs')) continue;
    const file = path.join(entry.parentPath, entry.name);
    const source = await readFile(file, 'utf8');
    const workersModule = path
      .relative(entry.parentPath, path.join(bundleDir, WORKERS_MODULE))
      .split(path.sep)
      .join('/');
    const pointed = source.replace(ENV_IMPORT, (_match, name: string) => {
      envImports += 1;
      return `import{env as ${name}}from${JSON.stringify(workersModule.startsWith('.') ? workersModule : `./${workersModule}`)}`;
    });
    if (pointed !== source) await writeFile(file, pointed);
  }
  if (envImports === 0)
    throw new Error(
      `no ${ENV_IMPORT.source} in the bundle: the probe no longer knows how the pages read their bindings`,
    );
  await writeFile(path.join(bundleDir, PROBE), probeSource(config.main));
  await writeFile(path.join(bundleDir, EMPTY), 'export {};\n');
  await writeFile(path.join(bundleDir, WORKERS_MODULE), 'export const env = {};\n');
  const files: Record<string, [string, string]> = {};
  for (const [file, bytes] of await readBuiltFiles(path.join(distDir, 'client')))
    if (file.startsWith('/data/')) files[file] = [etagOf(bytes), new TextDecoder().decode(bytes)];
  await writeFile(
    path.join(bundleDir, ASSETS_MODULE),
    `export const files = ${JSON.stringify(files)};\nexport const kv = ${JSON.stringify(benchSourceHealthValues())};\n`,
  );
  return { bundleDir, compatibility: { date: config.compatibility_date, flags: config.compatibility_flags ?? [] } };
}

export interface WorkerdColdFigures {
  /** The entry's import, over every launch. */
  start: { medianMs: number; maxMs: number };
  /** Each target's first request, `runs` launches each. */
  first: { target: string; status: number; medianMs: number; maxMs: number }[];
}

/**
 * `runs` launches of a fresh workerd per target, the targets taken in turn within each round (so that a busy moment
 * of a shared machine falls on all of them alike). Only the built files under `/data/` are the worker's to read.
 */
export async function measureWorkerdCold(
  distDir: string,
  runs: number,
  targets: readonly ColdTarget[] = COLD_TARGETS as ColdTarget[],
  onProgress: (done: number, all: number) => void = () => {},
): Promise<WorkerdColdFigures> {
  const { bundleDir, compatibility } = await probeBundle(distDir);
  try {
    const launches = targets.map((): Launch[] => []);
    for (let run = 0; run < runs; run += 1)
      for (const [index, target] of targets.entries()) {
        launches[index]!.push(await oneLaunch(bundleDir, compatibility, target));
        onProgress(run * targets.length + index + 1, runs * targets.length);
      }
    const starts = launches.flat().map((launch) => launch.startMs);
    return {
      start: { medianMs: median(starts), maxMs: Math.max(...starts) },
      first: targets.map((target, index) => {
        const taken = launches[index]!;
        return {
          target: target.name,
          status: taken[0]!.status,
          medianMs: median(taken.map((launch) => launch.firstMs)),
          maxMs: Math.max(...taken.map((launch) => launch.firstMs)),
        };
      }),
    };
  } finally {
    await rm(bundleDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const [distDir, runs = '5', ...names] = process.argv.slice(2);
  if (distDir === undefined) throw new Error('usage: node scripts/bench/workerd-cold.ts DIST [RUNS [TARGET NAME ...]]');
  const targets = (COLD_TARGETS as ColdTarget[]).filter((target) => names.length === 0 || names.includes(target.name));
  const figures = await measureWorkerdCold(distDir, Number(runs), targets, (done, all) =>
    process.stderr.write(`\rworkerd: ${done}/${all} launches`),
  );
  process.stderr.write('\n');
  console.log(JSON.stringify(figures, null, 2));
}
