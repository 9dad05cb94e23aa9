import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/**
 * A real D1 fault for a served build: the test process takes a real SQLite lock on the local D1 database file(s)
 * that `wrangler dev --persist-to <stateFolder>` serves (`<stateFolder>/v3/d1/miniflare-D1DatabaseObject/<id>.sqlite`,
 * in WAL mode), so that the worker's own D1 calls fail in workerd as a busy or unavailable D1 makes them fail.
 *
 * What the worker sees (wrangler 4.164, workerd's SQLite in WAL mode; measured against `wrangler dev`):
 *
 * - `blocks: 'writes'` (the default): the file is held in a write transaction (`BEGIN IMMEDIATE`, from
 *   node:sqlite). Every D1 call that writes (`run()` of a write, a `batch()` with a write in it) rejects at once
 *   (a few ms, no busy wait) with an `Error` whose message is `D1_ERROR: database is locked: SQLITE_BUSY` (its
 *   `cause`: `Error: database is locked: SQLITE_BUSY`); nothing of a failed batch is written. Reads (`first()`,
 *   `all()`, `raw()`) go on succeeding with the last committed rows: WAL lets readers past a writer
 *   (`BEGIN EXCLUSIVE` is the same as `IMMEDIATE` in WAL mode, and `PRAGMA locking_mode=EXCLUSIVE` cannot be taken
 *   while workerd has the file open).
 * - `blocks: 'reads-and-writes'`: the WAL index's read marks (bytes 123..127 of `<file>-shm`, SQLite's
 *   `WAL_READ_LOCK(0..4)`) are held with an exclusive POSIX lock by a `python3` child (Node has no fcntl). Every D1
 *   call, read or write, then waits about 10 s (SQLite's own back-off) and rejects with
 *   `D1_ERROR: internal error; reference = <random id>` (wrangler's log: `SQLite failed; ... locking protocol:
 *   SQLITE_PROTOCOL`). Each such call holds its invocation for those 10 s, and the database's calls run one at a
 *   time (one Durable Object): two calls at once take 10 s and 20 s. Other databases are not touched.
 *
 * After `release()` the very next call succeeds, in the same workerd process (no restart, no state lost).
 */

export interface LockLocalD1Options {
  /**
   * Which database: a `database_name` or `binding` of `workerConfig`'s `d1_databases`, or (without `workerConfig`) a
   * D1 id as the config gives it (`preview_database_id ?? database_id`). Left out: every D1 database in the folder.
   */
  database?: string;
  /** The served worker's config (e.g. `<copy>/server/wrangler.json`), to find `database` by name or binding. */
  workerConfig?: string;
  /** What fails in the worker while the lock is held (above); `'writes'` by default. */
  blocks?: 'writes' | 'reads-and-writes';
  /** How long to try to take the lock while workerd is inside a transaction of its own; 10 s by default. */
  acquireTimeoutMs?: number;
  /** Releases the lock by itself after this long (it can still be released earlier). */
  holdMs?: number;
}

export interface LocalD1Lock {
  /** The database files locked. */
  files: string[];
  /** Ends the lock (idempotent); the worker's next D1 call succeeds. */
  release(): Promise<void>;
}

const D1_OBJECTS = path.join('v3', 'd1', 'miniflare-D1DatabaseObject');

/**
 * The file name workerd gives the local D1 whose id (`preview_database_id ?? database_id ?? binding`, as wrangler
 * hands it to Miniflare) is `id`: the hex of the Durable Object id `idFromName(id)` of Miniflare's D1 namespace
 * (workerd's local id: an HMAC of the name under the SHA-256 of the namespace's unique key, and its check).
 */
export function localD1FileName(id: string): string {
  const key = createHash('sha256').update('miniflare-D1DatabaseObject').digest();
  const name = createHmac('sha256', key).update(id).digest().subarray(0, 16);
  const check = createHmac('sha256', key).update(name).digest().subarray(0, 16);
  return `${Buffer.concat([name, check]).toString('hex')}.sqlite`;
}

interface D1Entry {
  binding: string;
  database_name?: string;
  database_id?: string;
  preview_database_id?: string;
}

async function chosenFiles(stateFolder: string, options: LockLocalD1Options): Promise<string[]> {
  const folder = path.join(stateFolder, D1_OBJECTS);
  const present = existsSync(folder)
    ? (await readdir(folder)).filter((name) => name.endsWith('.sqlite') && name !== 'metadata.sqlite')
    : [];
  const { database, workerConfig } = options;
  if (database === undefined) {
    if (present.length === 0) throw new Error(`no local D1 database in ${folder} (has the worker used it yet?)`);
    return present.map((name) => path.join(folder, name));
  }
  let id = database;
  if (workerConfig !== undefined) {
    const { d1_databases: entries = [] } = JSON.parse(await readFile(workerConfig, 'utf8')) as {
      d1_databases?: D1Entry[];
    };
    const entry = entries.find((candidate) => [candidate.database_name, candidate.binding].includes(database));
    if (entry === undefined) throw new Error(`${workerConfig} has no D1 database or binding named ${database}`);
    id = entry.preview_database_id ?? entry.database_id ?? entry.binding;
  }
  const file = localD1FileName(id);
  if (!present.includes(file)) throw new Error(`the local D1 ${database} (${file}) is not in ${folder}`);
  return [path.join(folder, file)];
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `BEGIN IMMEDIATE` on `file`, retried (without blocking the event loop) while workerd holds its write lock. */
async function holdWriteLock(file: string, deadline: number): Promise<() => void> {
  const database = new DatabaseSync(file, { timeout: 0 });
  for (;;) {
    try {
      database.exec('BEGIN IMMEDIATE');
      return () => {
        database.exec('ROLLBACK');
        database.close();
      };
    } catch (error) {
      if (!/locked|busy/i.test((error as Error).message) || Date.now() > deadline) {
        database.close();
        throw new Error(`could not lock ${file}: ${(error as Error).message}`);
      }
      await pause(20);
    }
  }
}

/** The python3 program that holds the lock: `python3 -c <it> <shm file> <seconds to try>`. */
const READ_MARKS_LOCKER = `
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR)
deadline = time.time() + float(sys.argv[2])
while True:
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 5, 123, os.SEEK_SET)
        break
    except OSError as error:
        if time.time() > deadline:
            print('busy', error, flush=True)
            sys.exit(1)
        time.sleep(0.01)
print('locked', flush=True)
sys.stdin.read()
`;

/**
 * An exclusive POSIX lock on the read marks of `file`'s WAL index, held by a python3 child until its stdin ends (so
 * it ends with the test process too). Retried until `deadline` while workerd is inside a read of its own.
 */
async function holdReadMarks(file: string, deadline: number): Promise<() => Promise<void>> {
  const shm = `${file}-shm`;
  if (!existsSync(shm)) throw new Error(`${shm} is missing: is the worker serving this state folder?`);
  const seconds = String(Math.max(0, (deadline - Date.now()) / 1000));
  const child: ChildProcess = spawn('python3', ['-c', READ_MARKS_LOCKER, shm, seconds], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const locked = await new Promise<boolean>((resolve, reject) => {
    child.once('error', reject);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('locked')) resolve(true);
    });
    child.once('exit', () => resolve(false));
  });
  if (!locked) throw new Error(`could not lock the read marks of ${file}: ${output.trim()}`);
  return async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.stdin?.end();
    await exited;
  };
}

/** Locks the local D1 database(s) of the served state folder `stateFolder` (above); `release()` ends the lock. */
export async function lockLocalD1(stateFolder: string, options: LockLocalD1Options = {}): Promise<LocalD1Lock> {
  const files = await chosenFiles(stateFolder, options);
  const deadline = Date.now() + (options.acquireTimeoutMs ?? 10_000);
  const releases: (() => void | Promise<void>)[] = [];
  let timer: NodeJS.Timeout | undefined;
  let released: Promise<void> | undefined;
  const release = () => {
    released ??= (async () => {
      clearTimeout(timer);
      for (const end of releases.reverse()) await end();
    })();
    return released;
  };
  try {
    for (const file of files)
      releases.push(
        options.blocks === 'reads-and-writes'
          ? await holdReadMarks(file, deadline)
          : await holdWriteLock(file, deadline),
      );
  } catch (error) {
    await release();
    throw error;
  }
  if (options.holdMs !== undefined) timer = setTimeout(() => void release(), options.holdMs);
  return { files, release };
}
