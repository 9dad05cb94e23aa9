import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { LOCAL_STATE_DIR } from '../../src/node/local-state.ts';
import { vapidSecrets, type VapidSecrets } from '../../src/node/local-vapid.ts';
import { applyMigrations, type D1DatabaseConfig } from './local-d1.ts';
import { scaled } from './load-scaled.ts';
import { astroEntry, projectRoot, quietToolEnv, runTool, WRANGLER } from './tools.ts';

/**
 * Building the site and serving the production build in workerd, shared by `npm start`, the tests and the
 * benchmarks.
 */

export const BUILT_WORKER_CONFIG = path.join(projectRoot, 'dist/server/wrangler.json');

export interface BuildOptions {
  siteUrl: string;
  eventsDir?: string;
  /** Another output folder than dist/ (its worker config is then `<outDir>/server/wrangler.json`). */
  outDir?: string;
  stdio?: StdioOptions;
  /** A copy of the project to build instead (the tests' builds beside each other: scripts/lib/project-copy.ts). */
  projectDir?: string;
  /** `REPOSITORY_URL` for this build (the commit, review and report links); left out, the environment's. */
  repositoryUrl?: string;
  /** The build's output as it comes (with `stdio: 'pipe'`): `npm start` counts the files and keeps a log. */
  onOutput?: (text: string, stream: 'stdout' | 'stderr') => void;
}

/** `astro build` with `{base_url}` (and optionally another event tree); rejects with the build's output. */
export function buildSite({
  siteUrl,
  eventsDir,
  outDir,
  stdio = 'pipe',
  projectDir,
  repositoryUrl,
  onOutput,
}: BuildOptions): Promise<string> {
  // NODE_ENV=production whatever the caller's (vitest sets `test`, which makes Vite build with DEV=true).
  const env = {
    ...process.env,
    ...quietToolEnv,
    NODE_ENV: 'production',
    SITE_URL: siteUrl,
    ...(eventsDir ? { EVENTS_DIR: eventsDir } : {}),
    ...(repositoryUrl ? { REPOSITORY_URL: repositoryUrl } : {}),
  };
  const args = ['build', ...(outDir ? ['--outDir', outDir] : [])];
  return runTool(astroEntry(projectDir ?? projectRoot), args, env, stdio, 'astro build', {
    cwd: projectDir,
    ...(onOutput ? { onOutput } : {}),
  });
}

export interface ServeOptions {
  port: number;
  /**
   * Where workerd keeps local state (the rate limiter's counters, the source-health KV); a fresh folder
   * isolates a test run. Defaults to the project's LOCAL_STATE_DIR, the one `npm run watch` writes to.
   */
  persistTo?: string;
  host?: string;
  stdio?: StdioOptions;
  /** The built worker to serve; a copy of dist/ can be served to test faults without touching the build. */
  workerConfig?: string;
  /** The VAPID secrets; left out, the environment's or the local pair (src/node/local-vapid.ts), as `npm start`. */
  vapid?: VapidSecrets;
  /** Other secrets, written to the same env file (never the command line): `REVIEW_WEBHOOK_URL` (docs/watch.md). */
  secrets?: Readonly<Record<string, string>>;
  /**
   * Variables beyond the VAPID secrets, e.g. `ALLOW_LOOPBACK_RECEIVERS: 'true'` for a test's push receiver
   * (never set by `npm start`).
   */
  vars?: Readonly<Record<string, string>>;
  /** `false`: the caller applied the migrations itself (`migrateLocalState`), as `npm start` does to time them. */
  migrate?: boolean;
  /**
   * The debugger's port. Left out, wrangler takes 9229 or the next free one, and two servers or a build's
   * prerendering starting at the same moment can both pick the same one (EADDRINUSE). 0: the system gives one
   * as the socket binds, which no other process can take first.
   */
  inspectorPort?: number;
}

/** Settles once a server's secrets file is removed, after the server exited. */
const secretsRemoved = new WeakMap<ChildProcess, Promise<void>>();

/**
 * Serves the last build in workerd (`wrangler dev` on the built worker); await `waitUntilServing` next. First
 * the push database's migrations are applied to the state folder, and the VAPID secrets (the environment's, or
 * the local pair: src/node/local-vapid.ts) are written to a file only its owner reads, in the state folder, which
 * wrangler loads (`--env-file`): never on the command line, where `ps` shows it to every local user.
 * `/cdn-cgi/handler/scheduled` runs the cron's handler. It runs in a process group of its own, so `stopServer`
 * ends wrangler and the workerd processes it starts.
 */
export async function serveBuild({
  port,
  persistTo = LOCAL_STATE_DIR,
  host = '127.0.0.1',
  stdio = 'pipe',
  workerConfig = BUILT_WORKER_CONFIG,
  vars = {},
  vapid,
  secrets = {},
  inspectorPort,
  migrate = true,
}: ServeOptions): Promise<ChildProcess> {
  if (migrate) await migrateLocalState(workerConfig, persistTo);
  const secretsFile = await writeSecretsFile(persistTo, { ...(vapid ?? (await vapidSecrets())), ...secrets });
  const args = [WRANGLER, 'dev', '--config', workerConfig, '--port', String(port), '--ip', host];
  if (inspectorPort !== undefined) args.push('--inspector-port', String(inspectorPort));
  args.push('--show-interactive-dev-session=false', '--log-level', 'warn', '--test-scheduled');
  args.push('--persist-to', persistTo, '--env-file', secretsFile);
  for (const [name, value] of Object.entries(vars)) args.push('--var', `${name}:${value}`);
  const server = spawn(process.execPath, args, {
    cwd: projectRoot,
    env: { ...process.env, ...quietToolEnv },
    stdio,
    detached: true,
  });
  // The file lives as long as the server: secrets set in the environment get no lasting copy on disk.
  secretsRemoved.set(
    server,
    new Promise<void>((resolve) => server.on('exit', () => void rm(secretsFile, { force: true }).finally(resolve))),
  );
  return server;
}

/**
 * The push database's migrations applied to the local D1 in `persistTo`, for a worker with that database (every
 * build of the site; not a test's own small worker). Resolves with how many databases it has.
 */
export async function migrateLocalState(workerConfig: string, persistTo: string): Promise<number> {
  const { d1_databases: databases = [] } = JSON.parse(await readFile(workerConfig, 'utf8')) as {
    d1_databases?: D1DatabaseConfig[];
  };
  if (databases.length > 0) await applyMigrations(databases, persistTo);
  return databases.length;
}

/** The secrets as an env file (`NAME=value` lines) that only its owner can read, in the state folder. */
async function writeSecretsFile(persistTo: string, secrets: Readonly<Record<string, string>>): Promise<string> {
  await mkdir(persistTo, { recursive: true });
  const file = path.join(persistTo, 'secrets.env');
  const lines = Object.entries(secrets).map(([name, value]) => `${name}=${value}`);
  await writeFile(file, `${lines.join('\n')}\n`, { mode: 0o600 });
  await chmod(file, 0o600); // `mode` applies only to a file writeFile creates
  return file;
}

export function stopServer(server: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): void {
  if (server.pid === undefined || server.exitCode !== null) return;
  try {
    process.kill(-server.pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Ends the server's process group and waits until wrangler has exited (a hang guard scaled with the load, then
 * SIGKILL), and until its secrets file is gone.
 */
async function stopServerAndWait(server: ChildProcess): Promise<void> {
  if (server.pid !== undefined && server.exitCode === null && server.signalCode === null) {
    const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
    stopServer(server);
    let guard: NodeJS.Timeout | undefined;
    const killed = new Promise<void>((resolve) => {
      guard = setTimeout(() => {
        stopServer(server, 'SIGKILL');
        resolve();
      }, scaled(15_000));
    });
    await Promise.race([exited, killed.then(() => exited)]);
    clearTimeout(guard);
  }
  await secretsRemoved.get(server);
}

/** An answer at a server's address that is not its worker's: another process took the port it was given. */
export class ForeignAnswer extends Error {
  override name = 'ForeignAnswer';
}

/**
 * Polls `url` until the server answers, or fails after `timeoutMs` or when the server exits. Resolves with the
 * moment (`performance.now()`) the answered request was sent: the worker's first request, for a path it runs on.
 */
export async function waitUntilServing(
  url: string,
  server: ChildProcess,
  timeoutMs = 60_000,
  /** Whether an answer is the awaited server's own; another one is a `ForeignAnswer` (by default any answer is). */
  isOwn: (response: Response) => boolean = () => true,
): Promise<number> {
  // Hang guards scaled by the machine's load (scripts/lib/load-scaled.ts): a worker's first answer on a busy
  // machine can take longer than a request's idle limit, and every poll would then be cut short.
  const limit = scaled(timeoutMs);
  const deadline = Date.now() + limit;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the local server exited with code ${server.exitCode}`);
    const sentAt = performance.now();
    const response = await fetch(url, { signal: AbortSignal.timeout(scaled(2_000)) }).catch(() => null);
    if (response !== null) {
      await response.body?.cancel();
      if (!isOwn(response)) throw new ForeignAnswer(`${url} answered ${response.status}, not from the worker`);
      return sentAt;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the local server did not answer at ${url} within ${limit} ms`);
}

/**
 * Whether `port` can be listened on at `host` (for `localhost`: at 127.0.0.1 and at ::1, either of which a
 * server may take). Asked before the build, so that a busy port is reported in a second, not after a minute.
 */
export async function portIsFree(port: number, host: string): Promise<boolean> {
  const addresses = host === 'localhost' ? ['127.0.0.1', '::1'] : [host];
  for (const address of addresses) {
    const outcome = await new Promise<'free' | 'busy' | 'unavailable'>((resolve) => {
      const probe = createServer();
      probe.once('error', (error: NodeJS.ErrnoException) =>
        resolve(error.code === 'EADDRINUSE' || error.code === 'EACCES' ? 'busy' : 'unavailable'),
      );
      probe.listen({ port, host: address, exclusive: true }, () => probe.close(() => resolve('free')));
    });
    // 'unavailable': this machine has no such address (no IPv6, say); nothing can be in the way there.
    if (outcome === 'busy') return false;
  }
  return true;
}

/**
 * A free TCP port on the loopback interface, held until `release()`: for a port that must be known long before a
 * server binds it (a build's site address), so that no other process is given it in between.
 */
export function reservePort(): Promise<{ port: number; release: () => Promise<void> }> {
  return new Promise((resolve, reject) => {
    // Unreferenced: a holder a failed set-up never released does not keep the process alive.
    const holder = createServer().unref();
    holder.on('error', reject);
    holder.listen(0, '127.0.0.1', () => {
      const address = holder.address();
      if (typeof address !== 'object' || address === null) return reject(new Error('no free port'));
      resolve({ port: address.port, release: () => new Promise((done) => holder.close(() => done())) });
    });
  });
}

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port')),
      );
    });
  });
}

export interface RunningServer {
  baseUrl: string;
  /** The state folder it serves (local D1, KV, limiter counters): `queryLocalD1` (local-d1.ts) reads its D1. */
  stateDir: string;
  /**
   * When (`performance.now()`) the readiness request that was answered was sent: the worker's first request (every
   * path runs the worker first), which starts a new build's push dispatch (docs/delivery.md).
   */
  firstRequestAt: number;
  /** Resident memory of the server's processes (wrangler and workerd), in bytes, read from /proc. */
  residentBytes(): Promise<number>;
  /** What the server printed so far (its last 1 MiB): the worker's warnings and errors, wrangler's own lines. */
  output(): string;
  stop(): Promise<void>;
}

async function residentBytesOfGroup(groupId: number): Promise<number> {
  let total = 0;
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // Fields after the command name: state ppid pgrp …; the name may hold spaces, so split after ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) !== groupId) continue;
    const status = await readFile(`/proc/${entry}/status`, 'utf8').catch(() => '');
    const kib = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    total += Number(kib ?? 0) * 1024;
  }
  return total;
}

/**
 * Serves a build on a free port with its own state folder, and resolves once it answers `readyPath` (a
 * static file by default, so that the worker's first request is still to come: the cold start).
 */
export async function startServer(
  options: Omit<ServeOptions, 'port' | 'stdio' | 'workerConfig'> & {
    /** The built worker: a test's own build or copy (never the checkout's dist/, which `npm start` may serve). */
    workerConfig: string;
    port?: number;
    readyPath?: string;
  },
): Promise<RunningServer> {
  // A state folder of its own unless one is given (a test that wrote the source-health KV first).
  const ownState = options.persistTo === undefined;
  const state = options.persistTo ?? (await mkdtemp(path.join(tmpdir(), 'departures-board-state-')));
  // A key pair of the state folder's own unless one is given (never the environment's or `npm start`'s file),
  // kept across a restart on the same state, as a deployment keeps its key.
  const vapid = options.vapid ?? (await vapidSecrets({}, path.join(state, 'vapid-keys.local.json')));
  // A free port is free when asked, not always when the server binds it: on a machine running other servers (other
  // test files' workerd and their internal ports), another may take it first, and its answers would pass for ours.
  // So an answer without the worker's headers is another process's, and a port this function chose is chosen again.
  for (let attempt = 1; ; attempt += 1) {
    const port = options.port ?? (await freePort());
    const baseUrl = `http://127.0.0.1:${port}`;
    const server = await serveBuild({ inspectorPort: 0, ...options, port, persistTo: state, vapid });
    let log = '';
    const keep = (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-OUTPUT_KEPT_CHARS);
    };
    server.stdout?.on('data', keep);
    server.stderr?.on('data', keep);
    const outputClosed = new Promise<void>((resolve) => server.once('close', () => resolve()));
    // Ended and waited for: a restart on the same state (a test's deploy) must not meet the old server still
    // holding its database, nor its exit removing the secrets file the new one was just given.
    const stop = async () => {
      await stopServerAndWait(server);
      if (ownState) await rm(state, { recursive: true, force: true });
    };
    try {
      const firstRequestAt = await waitUntilServing(
        `${baseUrl}${options.readyPath ?? '/favicon.svg'}`,
        server,
        undefined,
        answersFromTheWorker,
      );
      const residentBytes = () => residentBytesOfGroup(server.pid ?? -1);
      return { baseUrl, stateDir: state, firstRequestAt, stop, residentBytes, output: () => log };
    } catch (error) {
      // An exited server's last words may still be in its pipes: read them before judging why it exited.
      if (server.exitCode !== null) await Promise.race([outputClosed, sleep(scaled(5_000))]);
      if (options.port === undefined && attempt < 3 && lostItsPort(error, server, log)) {
        await stopServerAndWait(server);
        continue;
      }
      await stop();
      throw new Error(`${(error as Error).message}\n${log}`);
    }
  }
}

/**
 * Whether a server failed only because another process took a port chosen for it between the choice and the bind:
 * one answered in its place, or it exited saying an address was in use (its own port, its inspector's, or one of
 * workerd's sockets).
 */
function lostItsPort(error: unknown, server: ChildProcess, log: string): boolean {
  if (error instanceof ForeignAnswer) return true;
  return server.exitCode !== null && /Address already in use|EADDRINUSE/.test(log);
}

/** Every answer of the worker carries `nosniff` (src/server/http/cors.ts); no other local server's does. */
const answersFromTheWorker = (response: Response): boolean =>
  response.headers.get('X-Content-Type-Options') === 'nosniff';

const OUTPUT_KEPT_CHARS = 1 << 20;
