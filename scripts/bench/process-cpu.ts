import { readdir, readFile } from 'node:fs/promises';

/**
 * Where a command's CPU goes, by kind of process (`npm run bench -- --test-runs N`): every process the command
 * starts, and every process those start, is read from /proc four times a second, and each one's last reading of its
 * user and system time is kept. A process that was seen once stays counted when its parent has gone (workerd
 * outliving its wrangler). A process that lives less than a quarter of a second can be missed; the machine's total
 * (/proc/stat) is the check on the sum. Linux only; elsewhere the table is empty.
 */

const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ on Linux: the unit of /proc/<pid>/stat's times.
const INTERVAL_MS = 250;

interface Seen {
  kind: string;
  cpuSeconds: number;
}

/** The kind a process is counted under, from its name and command line. */
export function processKind(name: string, command: string): string {
  if (name === 'workerd' || /\/workerd serve/.test(command)) return 'workerd';
  if (/chrom/i.test(name) || /\/chromium\b/.test(command)) return 'Chromium';
  const astro = /(?:^|[ /])astro(?:\.mjs|\.js)? (build|check|dev|sync)\b/.exec(command);
  if (astro !== null) return `astro ${astro[1]}`;
  const wrangler = /wrangler(?:-dist\/cli\.js|\.js) (dev|d1|kv|deploy)\b/.exec(command);
  if (wrangler !== null) return wrangler[1] === 'dev' ? 'wrangler dev' : `wrangler ${wrangler[1]}`;
  if (/vitest\/dist\/workers\//.test(command)) return 'Vitest workers (tests in Node)';
  if (/vitest\.mjs/.test(command)) return 'Vitest main';
  if (/esbuild/.test(name) || /\/esbuild /.test(command)) return 'esbuild';
  if (name === 'git' || name.startsWith('git-')) return 'git';
  if (/biome/.test(command)) return 'biome';
  return 'other';
}

/** A process's name, parent and CPU ticks so far, from `/proc/<pid>/stat`; null once it has gone. */
export async function readProcess(
  pid: string,
): Promise<{ parent: number; start: string; ticks: number; name: string } | null> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (stat === null) return null;
  const close = stat.lastIndexOf(')');
  const fields = stat.slice(close + 2).split(' ');
  return {
    name: stat.slice(stat.indexOf('(') + 1, close),
    parent: Number(fields[1]),
    start: fields[19] ?? '',
    ticks: Number(fields[11]) + Number(fields[12]),
  };
}

/** Starts sampling the tree under `rootPid`; `stop()` ends it and returns the CPU seconds by kind, most first. */
export function sampleProcessTree(rootPid: number): { stop(): Promise<[kind: string, cpuSeconds: number][]> } {
  const tree = new Set([rootPid]);
  const seen = new Map<string, Seen>();
  let running = true;
  const sample = async () => {
    const pids = (await readdir('/proc').catch(() => [] as string[])).filter((entry) => /^\d+$/.test(entry));
    const stats = new Map<number, NonNullable<Awaited<ReturnType<typeof readProcess>>>>();
    await Promise.all(
      pids.map(async (pid) => {
        const read = await readProcess(pid);
        if (read !== null) stats.set(Number(pid), read);
      }),
    );
    // Parents before children need not hold in pid order: repeat until the tree stops growing.
    for (let grown = true; grown; ) {
      grown = false;
      for (const [pid, stat] of stats)
        if (!tree.has(pid) && tree.has(stat.parent)) {
          tree.add(pid);
          grown = true;
        }
    }
    for (const pid of tree) {
      const stat = stats.get(pid);
      // Gone: forgotten, so that a new process given its number later is not taken for one of the tree's.
      if (stat === undefined) {
        if (pid !== rootPid) tree.delete(pid);
        continue;
      }
      const key = `${pid}/${stat.start}`;
      let entry = seen.get(key);
      if (entry === undefined) {
        const command = (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).replaceAll('\0', ' ');
        entry = { kind: processKind(stat.name, command), cpuSeconds: 0 };
        seen.set(key, entry);
      }
      entry.cpuSeconds = stat.ticks / CLOCK_TICKS_PER_SECOND;
    }
  };
  const loop = (async () => {
    while (running) {
      await sample();
      await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const byKind = new Map<string, number>();
      for (const { kind, cpuSeconds } of seen.values()) byKind.set(kind, (byKind.get(kind) ?? 0) + cpuSeconds);
      return [...byKind].sort((a, b) => b[1] - a[1]);
    },
  };
}
