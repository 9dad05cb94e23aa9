import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { projectRoot } from '../lib/tools.ts';
import { sampleProcessTree } from './process-cpu.ts';

/**
 * `npm run bench -- --test-runs N`: `npm test` N times in a row, each run's wall time, verdict and the CPU time the
 * whole machine spent meanwhile (from /proc/stat, so that the workerd processes that outlive their wrangler
 * parent count too, which `/usr/bin/time` misses; on an otherwise idle machine that is the run's own). A figure,
 * never an assertion: the tests themselves time nothing.
 */

const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ on Linux: the unit of /proc/stat's counters.

/** Seconds of CPU the machine has spent since boot on everything but idling and waiting for I/O. */
async function busyCpuSeconds(): Promise<number | null> {
  const stat = await readFile('/proc/stat', 'utf8').catch(() => null);
  const fields = stat?.split('\n')[0]?.trim().split(/\s+/).slice(1).map(Number);
  if (fields === undefined || fields.length < 8) return null;
  const [user, nice, system, , , irq, softirq, steal] = fields as number[];
  return (user! + nice! + system! + irq! + softirq! + steal!) / CLOCK_TICKS_PER_SECOND;
}

interface TestRun {
  wallSeconds: number;
  cpuSeconds: number | null;
  passed: boolean;
  summary: string;
  /** The names of the tests that failed, as Vitest lists them. */
  failures: string[];
  /** The CPU seconds of the run's own processes, by kind (scripts/bench/process-cpu.ts), most first. */
  cpuByKind: [kind: string, cpuSeconds: number][];
}

/** Where each run's whole output is kept (git-ignored), to read a failure afterwards. */
const LOG_FOLDER = path.join(projectRoot, 'test-artifacts/test-runs');

function npmTest(log: string): Promise<TestRun> {
  return new Promise((resolve) => {
    const started = performance.now();
    const cpuBefore = busyCpuSeconds();
    const child = spawn('npm', ['test'], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    const sampler = sampleProcessTree(child.pid ?? -1);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', async (code) => {
      const wallSeconds = (performance.now() - started) / 1000;
      const [before, after] = [await cpuBefore, await busyCpuSeconds()];
      const cpuByKind = await sampler.stop();
      const plain = stripVTControlCharacters(output);
      await writeFile(log, plain);
      // Vitest's closing line `      Tests  2 failed | 3 passed (5)`, not the `Failed Tests 2` heading before it.
      const summary = [...plain.matchAll(/^\s+Tests\s+(\d.+)$/gm)].at(-1)?.[1]?.trim() ?? 'no test summary';
      const failures = [...plain.matchAll(/^ FAIL +(.+)$/gm)].map((match) => match[1]!.trim());
      resolve({
        failures: [...new Set(failures)],
        wallSeconds,
        cpuSeconds: before === null || after === null ? null : after - before,
        cpuByKind,
        passed: code === 0,
        summary,
      });
    });
  });
}

/** The middle value (the mean of the two middle ones for an even count). */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export async function testRunsSection(count: number): Promise<string> {
  const rows: string[] = [];
  const walls: number[] = [];
  const byKind: TestRun['cpuByKind'][] = [];
  await mkdir(LOG_FOLDER, { recursive: true });
  for (let run = 1; run <= count; run += 1) {
    // The machine's load as the run starts (the last minute's average): a run beside other work is slower.
    const load = loadavg()[0]!.toFixed(1);
    console.error(`npm test, run ${run} of ${count} (load average ${load} on ${availableParallelism()} cores)…`);
    const log = path.join(LOG_FOLDER, `run-${run}.log`);
    const result = await npmTest(log);
    walls.push(result.wallSeconds);
    byKind.push(result.cpuByKind);
    const cpu = result.cpuSeconds === null ? '–' : result.cpuSeconds.toFixed(0);
    const verdict = result.passed ? 'passed' : 'FAILED';
    rows.push(`| ${run} | ${result.wallSeconds.toFixed(1)} | ${cpu} | ${load} | ${verdict} | ${result.summary} |`);
    console.error(`  ${result.wallSeconds.toFixed(1)} s, ${result.passed ? 'passed' : 'failed'}: ${result.summary}`);
    for (const failure of result.failures) console.error(`  failed: ${failure} (${path.relative(projectRoot, log)})`);
  }
  return [
    `### npm test, ${count} runs in a row (${availableParallelism()} cores)`,
    '',
    '| run | wall s | machine CPU s | load at start | verdict | tests |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    `Median wall time: ${median(walls).toFixed(1)} s.`,
    '',
    'CPU seconds of the run’s own processes by kind (read from /proc four times a second: scripts/bench/process-cpu.ts;',
    'the machine CPU above less this sum is other work on the machine, or processes shorter than a quarter second):',
    '',
    kindTable(byKind),
  ].join('\n');
}

/** One row per kind of process, one column per run, the kinds in the order of the first run's CPU. */
function kindTable(runs: readonly TestRun['cpuByKind'][]): string {
  const kinds = [...new Set(runs.flatMap((run) => run.map(([kind]) => kind)))];
  const cell = (run: TestRun['cpuByKind'], kind: string) => (run.find(([name]) => name === kind)?.[1] ?? 0).toFixed(0);
  const total = (run: TestRun['cpuByKind']) => run.reduce((sum, [, seconds]) => sum + seconds, 0).toFixed(0);
  return [
    `| kind | ${runs.map((_, index) => `run ${index + 1}`).join(' | ')} |`,
    `| --- | ${runs.map(() => '---').join(' | ')} |`,
    ...kinds.map((kind) => `| ${kind} | ${runs.map((run) => cell(run, kind)).join(' | ')} |`),
    `| sum | ${runs.map(total).join(' | ')} |`,
  ].join('\n');
}
