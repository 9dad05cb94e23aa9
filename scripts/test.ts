// `npm test` after the events are validated and the code linted: the type check and every test, side by side.
// The check (`astro check`, 19 s on one core) would otherwise come first, and the tests' start (the build of the
// served fixture) leaves the other core idle. It checks a copy of the project (scripts/lib/project-copy.ts): it
// first syncs Astro's content store, which that build writes too. Its report follows the tests'. Arguments are
// passed to `vitest run`.
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { copyProject } from './lib/project-copy.ts';
import { astroEntry, projectRoot, quietToolEnv, runTool, VITEST } from './lib/tools.ts';

// Node's compile cache (V8's code cache of every module Node loads, kept between runs): the run starts Node about
// two hundred times (wrangler for every server, Astro, Vitest's workers, the commands under test), and each start
// of wrangler compiled its 10 MB bundle again (0.25 s of CPU of its 1.1 s to print its version). It changes what is
// compiled, not what runs. Every process below inherits it; a value already set is kept.
process.env['NODE_COMPILE_CACHE'] ??= path.join(projectRoot, 'node_modules/.cache/departures-board/node-compile-cache');

const copy = await copyProject('departures-board-typecheck-', ['tests', 'vitest.config.ts']);
console.log('Type-checking (astro check) beside the tests; its report follows theirs.\n');
const stop = new AbortController();
const check = runTool(astroEntry(copy), ['check'], { ...process.env, ...quietToolEnv }, 'pipe', 'astro check', {
  cwd: copy,
  signal: stop.signal,
}).then(
  (report) => ({ passed: true, report }),
  (error: Error) => ({ passed: false, report: error.message }),
);

const tests = spawn(process.execPath, [VITEST, 'run', ...process.argv.slice(2)], { stdio: 'inherit' });
// Ctrl+C or a stop: both end, and the copy is still removed below.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    tests.kill(signal);
    stop.abort();
  });
}
const testsPassed = await new Promise<boolean>((resolve) => {
  tests.on('error', () => resolve(false));
  tests.on('exit', (code) => resolve(code === 0));
});

const { passed, report } = await check;
await rm(copy, { recursive: true, force: true });
// The copy's paths, as the project's.
console.log(`\nastro check:\n${report.replaceAll(`${copy}/`, '').trim()}`);
process.exitCode = testsPassed && passed ? 0 : 1;
