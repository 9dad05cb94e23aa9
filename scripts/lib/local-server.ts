import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LOCAL_STATE_DIR } from '../../src/node/local-state.ts';
import { vapidSecrets, type VapidSecrets } from '../../src/node/local-vapid.ts';
import { applyMigrations, type D1DatabaseConfig } from './local-d1.ts';
import { scaled, withinScaled } from './load-scaled.ts';
import { startMiniflareServer } from './miniflare-server.ts';
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
}

/**
 * Serves the last build in workerd (`wrangler dev` on the built worker); await `waitUntilServing` next. First
 * the push database's migrations are applied to the state folder, and the VAPID secrets (the environment's, or
 * the local pair: src/node/local-vapid.ts) are written to a file only its owner reads, in the state folder, which
 * wrangler loads (`--env-file`): never on the command line, where `ps` shows it to every local user.
 * `/cdn-cgi/local/scheduled` runs the cron's handler. It runs in a process group of its own, so `stopServer`
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
  migrate = true,
}: ServeOptions): Promise<ChildProcess> {
  if (migrate) await migrateLocalState(workerConfig, persistTo);
  const secretsFile = await writeSecretsFile(persistTo, { ...(vapid ?? (await vapidSecrets())), ...secrets });
  const args = [WRANGLER, 'dev', '--config', workerConfig, '--port', String(port), '--ip', host];
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
  server.on('exit', () => void rm(secretsFile, { force: true }));
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
  server: Pick<ChildProcess, 'exitCode'>,
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
 * The first of the ports the system gives out by itself, to a server that binds port 0 and to every outgoing
 * connection (Linux's `ip_local_port_range`; elsewhere IANA's dynamic range, from 49152).
 */
async function systemPortsFrom(): Promise<number> {
  const range = await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').catch(() => '');
  const low = Number(range.trim().split(/\s+/)[0]);
  return Number.isInteger(low) && low > 0 ? low : 49152;
}

/** Ports chosen by `reservePort` and `freePort` lie in [PORTS_CHOSEN_FROM, the system's range). */
const PORTS_CHOSEN_FROM = 10_000;

/** A port a listener of this process holds on the loopback interface until `release()`. */
export interface ReservedPort {
  port: number;
  release: () => Promise<void>;
}

/** Listens on `port` at 127.0.0.1 (0: one the system gives) and holds it; null when it is taken. */
function hold(port: number): Promise<ReservedPort | null> {
  return new Promise((resolve) => {
    // Unreferenced: a holder a failed set-up never released does not keep the process alive.
    const holder = createServer().unref();
    holder.once('error', () => resolve(null));
    holder.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
      const address = holder.address();
      const release = () => new Promise<void>((done) => holder.close(() => done()));
      resolve(typeof address === 'object' && address !== null ? { port: address.port, release } : null);
    });
  });
}

/**
 * A free TCP port on the loopback interface, held until `release()`: for a port that must be known long before a
 * server binds it (a build's site address), so that no other process takes it in between. Chosen at random below the
 * range the system gives out by itself: a port of that range could be given to another server or to an outgoing
 * connection of the run between its release and its server's bind (the start then fails: `startServer`), which a
 * port outside it cannot.
 */
export async function reservePort(): Promise<ReservedPort> {
  const span = (await systemPortsFrom()) - PORTS_CHOSEN_FROM;
  for (let attempt = 0; span > 1_000 && attempt < 100; attempt += 1) {
    const reserved = await hold(PORTS_CHOSEN_FROM + randomInt(span));
    if (reserved !== null) return reserved;
  }
  // No room below the system's range (a machine configured so), or none free there: one the system gives.
  const reserved = await hold(0);
  if (reserved === null) throw new Error('no free port on 127.0.0.1');
  return reserved;
}

/** A TCP port free now on the loopback interface, chosen as `reservePort` chooses, for a server that binds it later. */
export async function freePort(): Promise<number> {
  const { port, release } = await reservePort();
  await release();
  return port;
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
  /**
   * Resident memory of the workerd processes this process started, in bytes, read from /proc: the server's own
   * when it is the process's only one (the load benchmark's).
   */
  residentBytes(): Promise<number>;
  /** What the worker logged so far (its last 1 MiB), one `level: message` line each: its warnings and errors. */
  output(): string;
  stop(): Promise<void>;
}

/** Resident memory of the workerd processes whose parent is this process, from /proc. */
async function residentBytesOfOwnWorkerd(): Promise<number> {
  let total = 0;
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    // Fields after the command name: state ppid …; the name may hold spaces, so split after ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (name !== 'workerd' || Number(fields[1]) !== process.pid) continue;
    const status = await readFile(`/proc/${entry}/status`, 'utf8').catch(() => '');
    const kib = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    total += Number(kib ?? 0) * 1024;
  }
  return total;
}

/**
 * wrangler's programmatic dev server, loaded once per process. Its environment is set first, as `quietToolEnv` is
 * for the command: no metrics, no request for the `cf` object this machine cannot reach. The worker's log is taken
 * apart (`RunningServer.output`); wrangler's own lines from warnings up, but for two kinds of information its local
 * runtime prints whatever the level (the assets' header rules read, a queue batch delivered), which the tests'
 * configuration leaves out of their output (vitest.config.ts).
 */
let wranglerApi: Promise<typeof import('wrangler')> | undefined;
export function wranglerDevApi(): Promise<typeof import('wrangler')> {
  const { NO_COLOR: _colour, ASTRO_TELEMETRY_DISABLED: _astro, ...wranglerEnv } = quietToolEnv;
  Object.assign(process.env, wranglerEnv);
  wranglerApi ??= import('wrangler');
  return wranglerApi;
}

/**
 * Serves a build in workerd, started from this process by Miniflare, the runtime under `wrangler dev`, with the
 * bindings wrangler reads from the config (scripts/lib/miniflare-server.ts: no wrangler process of its own, which
 * cost about 1.5 s of CPU per start, and no proxy in front of the worker), with its own state folder, on `port` or
 * one the system gives as it binds; resolves once it answers `readyPath` (a static file by default, so that the
 * worker's first request is still to come: the cold start). `npm start` runs the command instead (`serveBuild`),
 * whose log the person reads.
 */
export async function startServer(
  options: Omit<ServeOptions, 'port' | 'stdio' | 'workerConfig'> & {
    /** The built worker: a test's own build or copy (never the checkout's dist/, which `npm start` may serve). */
    workerConfig: string;
    /** A port, or `reservePort()`'s reservation, which is released at the last moment before the bind. */
    port?: number | ReservedPort;
    readyPath?: string;
  },
): Promise<RunningServer> {
  // A state folder of its own unless one is given (a test that wrote the source-health KV first).
  const ownState = options.persistTo === undefined;
  const state = options.persistTo ?? (await mkdtemp(path.join(tmpdir(), 'departures-board-state-')));
  // A key pair of the state folder's own unless one is given (never the environment's or `npm start`'s file),
  // kept across a restart on the same state, as a deployment keeps its key.
  const vapid = options.vapid ?? (await vapidSecrets({}, path.join(state, 'vapid-keys.local.json')));
  if (options.migrate !== false) await migrateLocalState(options.workerConfig, state);
  // A state folder of this function's own goes with the server.
  const cleanUp = async () => {
    if (ownState) await rm(state, { recursive: true, force: true });
  };
  let log = '';
  // A port taken by the time workerd binds it fails the start only after Miniflare's retries (seconds, more on a busy
  // machine); asked for just before it, the failure is at once and names the port. Port 0 (the system's choice as it
  // binds) is the one to use wherever the caller can learn the address afterwards.
  const host = options.host ?? '127.0.0.1';
  const { port = 0, release } = typeof options.port === 'object' ? options.port : { port: options.port };
  await release?.();
  if (port !== 0 && !(await portIsFree(port, host))) {
    await cleanUp();
    throw new Error(`port ${port} on ${host} is in use: choose another`);
  }
  const worker = await startMiniflareServer({
    wrangler: await wranglerDevApi(),
    what: 'the local server',
    workerConfig: options.workerConfig,
    persistTo: state,
    vars: { ...options.vars, ...vapid, ...options.secrets },
    host,
    port,
    onLog: (level, message) => {
      log = `${log}${level}: ${message}\n`.slice(-OUTPUT_KEPT_CHARS);
    },
  }).catch(async (error: Error) => {
    await cleanUp();
    throw new Error(`${error.message}\n${log}`);
  });
  // Disposed and waited for: a restart on the same state (a test's deploy) must not meet the old server still
  // holding its database.
  const stop = async () => {
    await worker.dispose();
    await cleanUp();
  };
  try {
    const baseUrl = worker.url.origin;
    const firstRequestAt = await waitUntilServing(
      `${baseUrl}${options.readyPath ?? '/favicon.svg'}`,
      { exitCode: null }, // no process of its own that could exit: workerd's failures fail the start
      undefined,
      answersFromTheWorker,
    );
    return {
      baseUrl,
      stateDir: state,
      firstRequestAt,
      stop,
      residentBytes: residentBytesOfOwnWorkerd,
      output: () => log,
    };
  } catch (error) {
    // The start's own error is the one to report, not a failure of the clean-up after it; and a server that never
    // started may never stop either (above): the clean-up is given a while, not for ever.
    await withinScaled(stop(), 30_000, 'the server that failed to start did not stop').catch(() => undefined);
    throw new Error(`${(error as Error).message}\n${log}`);
  }
}

/** Every answer of the worker carries `nosniff` (src/server/http/cors.ts); no other local server's does. */
const answersFromTheWorker = (response: Response): boolean =>
  response.headers.get('X-Content-Type-Options') === 'nosniff';

const OUTPUT_KEPT_CHARS = 1 << 20;
