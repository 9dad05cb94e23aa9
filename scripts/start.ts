// `npm start`: builds the site for `{base_url}` and serves the production build in workerd on PORT. It prints a
// screen, not a log: a line per phase (the port, the build, the local D1, workerd), the address once it answers,
// each setting present or absent and what it turns on (the doctor's words: scripts/lib/doctor-checks.ts), and how
// to stop it. The tools' whole output goes to a log file in the temp folder, whose tail is printed when a phase
// fails; `--verbose` shows that output as it comes, as before.
// `--out-dir <folder>` builds into and serves from another folder than dist/ (the tests use it).
import type { ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { LOCAL_STATE_DIR } from '../src/node/local-state.ts';
import { LOCAL_VAPID_FILE, vapidSecrets } from '../src/node/local-vapid.ts';
import { configuredSiteUrl, servePort, siteUrl } from '../src/node/site-url.ts';
import { checkSettings } from './lib/doctor-checks.ts';
import {
  BUILT_WORKER_CONFIG,
  buildSite,
  migrateLocalState,
  portIsFree,
  serveBuild,
  stopServer,
  waitUntilServing,
} from './lib/local-server.ts';
import { projectRoot } from './lib/tools.ts';

const { values } = parseArgs({ options: { 'out-dir': { type: 'string' }, verbose: { type: 'boolean' } } });
const outDir = values['out-dir'] === undefined ? undefined : path.resolve(values['out-dir']);
const verbose = values.verbose === true;
const port = servePort();
const host = process.env.HOST ?? 'localhost';
const local = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
const workerConfig = outDir ? path.join(outDir, 'server/wrangler.json') : BUILT_WORKER_CONFIG;
const shown = (file: string) => (file.startsWith(projectRoot) ? path.relative(projectRoot, file) : file);

// Before the build (a minute of work): a port already taken would only fail at the very end.
if (!(await portIsFree(port, host))) {
  console.error(
    `PORT ${port} is already in use on ${host}: stop what is listening there, or choose another, e.g. PORT=${port + 1} npm start`,
  );
  process.exit(1);
}

// The log: one file per port (two starts cannot share a port), written afresh by each start, readable by its owner.
const logFile = path.join(tmpdir(), `departures-board-start-${port}.log`);
const log = createWriteStream(logFile, { mode: 0o600 });
/** The log's last lines, printed when a phase fails. */
let recent = '';
function record(text: string, stream: 'stdout' | 'stderr', show: boolean): void {
  log.write(text);
  recent = (recent + text).slice(-64_000);
  if (show) process[stream].write(text);
}

const tty = process.stdout.isTTY === true && !verbose;
let phase = '';
const begin = (text: string) => {
  phase = text;
  process.stdout.write(verbose ? `${text}…\n` : `  ${text}… `);
};
/** A count as the phase goes, rewriting its line in a terminal (piped, the line waits for its result). */
const progress = (detail: string) => {
  if (tty) process.stdout.write(`\r\x1b[K  ${phase}… ${detail}`);
};
const end = (result: string) =>
  process.stdout.write(tty ? `\r\x1b[K  ${phase}… ${result}\n` : verbose ? `${phase}: ${result}\n` : `${result}\n`);
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** Ends `npm start` after a failed phase: the phase's line, the log's tail, where the whole log is. */
async function fail(error: unknown, code = 1): Promise<never> {
  end('failed');
  const tail = recent.trimEnd().split('\n').slice(-40);
  if (!verbose && tail.length > 0 && tail[0] !== '')
    console.error(`\nThe log's last ${tail.length} lines (the whole log: ${logFile}):\n${tail.join('\n')}\n`);
  const why = (error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)).replace(/:$/, '');
  console.error(`npm start stopped: ${why}`);
  await new Promise((resolve) => log.end(resolve));
  process.exit(code);
}

console.log(
  verbose
    ? `Departures Board: npm start --verbose (the tools' whole output, below, is also kept in ${logFile})`
    : `Departures Board: npm start (the tools' whole output: ${logFile}; npm start -- --verbose shows it here)`,
);
console.log(`  port ${port} on ${host}: free`);

// The build: Astro lists every file it prerenders (`├─ /data/records/12.json`), counted here.
const buildStart = performance.now();
begin(`building the site for ${siteUrl()}`);
let files = 0;
let partial = '';
let shownAt = 0;
await buildSite({
  siteUrl: siteUrl(),
  stdio: 'pipe',
  ...(outDir ? { outDir } : {}),
  onOutput: (text, stream) => {
    record(text, stream, verbose);
    const lines = (partial + text).split('\n');
    partial = lines.pop() ?? '';
    files += lines.filter((line) => /[├└]─ \//.test(line)).length;
    if (performance.now() - shownAt > 100) {
      shownAt = performance.now();
      progress(`${files} pages and data files`);
    }
  },
}).catch(fail);
end(`${files} pages and data files, ${seconds(buildStart)}`);

// The push database's schema in the local state (kept between starts), then workerd.
const migrationsStart = performance.now();
begin(`migrating the local D1 (${shown(LOCAL_STATE_DIR)})`);
try {
  await migrateLocalState(workerConfig, LOCAL_STATE_DIR);
} catch (error) {
  record(`${(error as Error).message}\n`, 'stderr', verbose);
  await fail(error);
}
const migrations = (await readdir(path.join(projectRoot, 'migrations'))).filter((file) => file.endsWith('.sql'));
end(`all ${migrations.length} migrations applied, ${seconds(migrationsStart)}`);

// The review channel of the watcher and the review page's signing key (docs/watch.md), when the environment names
// them: through the secrets file. The other secrets of a deployment stay out of a local server (GITHUB_TOKEN, in
// many a shell for other tools, would let it commit to the repository).
const PASSED_SECRETS = ['REVIEW_WEBHOOK_URL', 'REVIEW_SIGNING_KEY'] as const;
const secrets = Object.fromEntries(
  PASSED_SECRETS.flatMap((name) => {
    const value = process.env[name];
    return value ? [[name, value]] : [];
  }),
);
const vapid = await vapidSecrets();
const vapidMadeLocally = !(process.env.VAPID_PUBLIC_KEY && process.env.VAPID_PRIVATE_KEY && process.env.VAPID_SUBJECT);

const serverStart = performance.now();
begin('starting workerd');
let ready = false;
let stopping = false;
const server: ChildProcess = await serveBuild({
  port,
  host,
  stdio: 'pipe',
  vapid,
  migrate: false,
  ...(Object.keys(secrets).length > 0 ? { secrets } : {}),
  workerConfig,
}).catch(fail);
// Once the screen is printed, what the server says (the worker's warnings and errors) is shown as it comes.
server.stdout?.on('data', (chunk: Buffer) => record(chunk.toString(), 'stdout', verbose || ready));
server.stderr?.on('data', (chunk: Buffer) => record(chunk.toString(), 'stderr', verbose || ready));

// The server runs in a process group of its own (so that it can be stopped whole, workerd included), which
// also means the terminal's signals do not reach it: Ctrl-C (SIGINT), SIGTERM and closing the terminal
// (SIGHUP) are passed on here, and this process leaves when the server has.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
  process.on(signal, () => {
    stopping = true;
    stopServer(server, 'SIGTERM');
  });
server.on('exit', (code, signal) => {
  // Before it answers, waitUntilServing sees the exit and the phase fails with the log's tail.
  if (!ready) return;
  if (!stopping) {
    const tail = recent.trimEnd().split('\n').slice(-40).join('\n');
    console.error(`\nThe server stopped (${code ?? signal}); the log's last lines (${logFile}):\n${tail}`);
  }
  log.end(() => process.exit(code ?? (signal ? 0 : 1)));
});

try {
  await waitUntilServing(`${local}/favicon.svg`, server, 120_000);
} catch (error) {
  stopServer(server, 'SIGTERM');
  await fail(new Error(`The server did not start: ${(error as Error).message}`));
}
end(`answering, ${seconds(serverStart)}`);
ready = true;

// What this server has and has not, in the doctor's words (npm run doctor checks a deployment's settings).
const settings = checkSettings({
  env: { ...secrets, ...vapid, REPOSITORY_URL: process.env.REPOSITORY_URL },
  workerSecrets: [],
  ...(vapidMadeLocally
    ? {
        madeLocally: {
          names: ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT'],
          file: shown(LOCAL_VAPID_FILE),
        },
      }
    : {}),
});
/** A deployment's secret that the shell sets but npm start leaves out of the local server: said so, not hidden. */
const NOT_PASSED = ['OPS_WEBHOOK_URL', 'TELEGRAM_BOT_TOKEN', 'TELEGRAM_WEBHOOK_SECRET', 'GITHUB_TOKEN'];
const notPassed = (note: string) => {
  const names = note.slice(0, note.indexOf(': ')).split(', ');
  const inShell = names.filter((name) => NOT_PASSED.includes(name) && process.env[name]);
  return inShell.length === 0
    ? note
    : `${note} (${inShell.join(', ')} set in this shell, but npm start does not give it to the local server)`;
};
const configuration = [
  configuredSiteUrl()
    ? `SITE_URL: ${siteUrl()}: the pages' links point there, not to this server`
    : `SITE_URL: absent: the pages' links point to this server (${local})`,
  ...settings.notes.map(notPassed),
  ...settings.problems.map((problem) => `problem: ${problem}`),
];
console.log(`\nDepartures Board is served at ${local}. Ctrl+C stops it.\n`);
console.log('What this server has (npm run doctor checks a deployment):');
for (const line of configuration) console.log(`  ${line}`);
console.log(`\nThe server's warnings and errors show below; the whole log is in ${logFile}.`);
