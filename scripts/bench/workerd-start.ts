import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { wranglerDevApi } from '../lib/local-server.ts';
import { readProcess } from './process-cpu.ts';

/**
 * The built worker's start in workerd, the runtime the platform runs: the CPU the workerd process spends compiling
 * and evaluating the bundle's modules, read from Linux's per-thread scheduler counters (`/proc/<pid>/task/<tid>/
 * schedstat`, nanoseconds) around the request that imports them. The in-process figure (cpu.ts's module evaluation)
 * is Node's import, which also resolves URLs, reads and decodes each file and runs a loader hook per module; workerd
 * holds the modules in memory.
 *
 * Each sample is a workerd of its own, started by wrangler's dev server API over a copy of the bundle with a probe
 * entry of three paths, asked in order: `/warm` makes the first Intl formatters (ICU's first load, which a workerd
 * process that has run an isolate before has paid) and the first request's own work; `/empty` imports an empty
 * module (what a dynamic import and a request cost by themselves); `/worker` imports the built entry. The figure is
 * `/worker` less `/empty`, all threads of the process (V8's background compiler and collector included, as in
 * `process.cpuUsage()`). Linux only.
 */

const PROBE = 'start-probe.mjs';
const EMPTY = 'start-probe-empty.mjs';
/** The probe's three requests run one after another; this long after each, its background work has finished. */
const SETTLE_MS = 300;

const probeSource = (entry: string) => `
export default {
  async fetch(request) {
    const { pathname } = new URL(request.url);
    if (pathname === '/warm') {
      new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' }).format(0);
      new Intl.RelativeTimeFormat('en').format(-1, 'day');
      new Intl.NumberFormat('en').format(1.5);
      new Intl.PluralRules('en').select(1);
      return new Response('warm');
    }
    await import(pathname === '/worker' ? ${JSON.stringify(`./${entry}`)} : './${EMPTY}');
    return new Response('imported');
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

async function oneSample(bundleDir: string, compatibility: { date: string; flags: string[] }): Promise<number> {
  const { unstable_startWorker } = await wranglerDevApi();
  const before = new Set(await childWorkerds());
  const worker = await unstable_startWorker({
    name: 'start-probe',
    entrypoint: path.join(bundleDir, PROBE),
    compatibilityDate: compatibility.date,
    compatibilityFlags: compatibility.flags,
    build: { bundle: false, moduleRules: [{ type: 'ESModule', globs: ['**/*.mjs'] }] },
    dev: { server: { hostname: '127.0.0.1', port: 0 }, inspector: false, logLevel: 'error', watch: false },
  });
  try {
    await worker.ready;
    // The worker's workerd and the one of wrangler's proxy in front of it: the proxy's share is the same for every
    // request, so it leaves the difference.
    const pids = (await childWorkerds()).filter((pid) => !before.has(pid));
    const cpuMs = async () => (await Promise.all(pids.map(processCpuMs))).reduce((sum, ms) => sum + ms, 0);
    const timed = async (pathname: string) => {
      const start = await cpuMs();
      const response = await worker.fetch(`http://start-probe${pathname}`);
      const body = await response.text();
      if (!response.ok) throw new Error(`${pathname} answered ${response.status}: ${body.slice(0, 300)}`);
      await sleep(SETTLE_MS);
      return (await cpuMs()) - start;
    };
    await timed('/warm');
    const empty = await timed('/empty');
    return (await timed('/worker')) - empty;
  } finally {
    await worker.dispose();
  }
}

/** Median and worst of `runs` starts of the bundle in `distDir/server`, each in a fresh workerd. */
export async function measureWorkerdStart(distDir: string, runs: number): Promise<{ medianMs: number; maxMs: number }> {
  const serverDir = path.join(distDir, 'server');
  const config = JSON.parse(await readFile(path.join(serverDir, 'wrangler.json'), 'utf8')) as {
    main: string;
    compatibility_date: string;
    compatibility_flags?: string[];
  };
  const bundleDir = await mkdtemp(path.join(os.tmpdir(), 'departures-board-start-probe-'));
  try {
    await cp(serverDir, bundleDir, {
      recursive: true,
      // Without its wrangler.json, which wrangler would read beside the entry (the assets, the bindings).
      filter: (source) => !source.endsWith('.map') && path.basename(source) !== 'wrangler.json',
    });
    await writeFile(path.join(bundleDir, PROBE), probeSource(config.main));
    await writeFile(path.join(bundleDir, EMPTY), 'export {};\n');
    const compatibility = { date: config.compatibility_date, flags: config.compatibility_flags ?? [] };
    const samples: number[] = [];
    for (let run = 0; run < runs; run += 1) samples.push(await oneSample(bundleDir, compatibility));
    const sorted = [...samples].sort((a, b) => a - b);
    return { medianMs: sorted[Math.floor(sorted.length / 2)]!, maxMs: sorted.at(-1)! };
  } finally {
    await rm(bundleDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const [distDir, runs = '5'] = process.argv.slice(2);
  if (distDir === undefined) throw new Error('usage: node scripts/bench/workerd-start.ts DIST [RUNS]');
  console.log(JSON.stringify(await measureWorkerdStart(distDir, Number(runs))));
}
