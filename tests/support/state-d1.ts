import { rmSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, beforeEach } from 'vitest';
import { scaled } from '../../scripts/lib/load-scaled.ts';
import { copyMigratedD1 } from '../../scripts/lib/local-d1.ts';
import { wranglerDevApi } from '../../scripts/lib/local-server.ts';
import { startMiniflareServer } from '../../scripts/lib/miniflare-server.ts';
import { d1OverHttp } from './d1-over-http.ts';

/**
 * A real local D1 (Miniflare's, the one `wrangler dev` runs) with the repository's migrations applied: the service's
 * state database, for tests of the delivery wing and the watcher in Node, reached through a small worker of the
 * tests' own, one request per operation (tests/support/d1-over-http.ts).
 */
const GATEWAY = path.join(import.meta.dirname, 'd1-gateway.worker.js');

/** A real local D1 in workerd: starting one takes about a second, and several on a loaded machine (scaled). */
export const REAL_D1 = { timeout: scaled(60_000) };

export interface StateDatabase {
  db: D1Database;
  /** Deletes every row (the schema stays), so that a file's tests share one database and each starts empty. */
  empty(): Promise<void>;
  dispose(): Promise<void>;
  /** Removes its folder at once (synchronously: from a process's `exit`), after workerd has been stopped. */
  removeFolder(): void;
}

export async function startStateDatabase(): Promise<StateDatabase> {
  // A real D1 runs at the real clock only: under a moved Date (tests/support/shifted-clock.ts) the local runtime's
  // start was seen to wait for ever on timers the moved clock never reaches.
  if (Number(process.env['TEST_CLOCK_SHIFT_DAYS'] ?? 0) !== 0)
    throw new Error('a real local D1 runs at the real clock only: add this file to REAL_CLOCK_ONLY (vitest.config.ts)');
  const folder = await mkdtemp(path.join(tmpdir(), 'departures-board-state-d1-'));
  const configPath = path.join(folder, 'wrangler.json');
  const databases = [{ binding: 'DB', database_name: 'state-test', database_id: 'state-test' }];
  await writeFile(
    configPath,
    JSON.stringify({ name: 'state-test', main: GATEWAY, compatibility_date: '2026-10-01', d1_databases: databases }),
  );
  // Migrated by wrangler, as every local server's database is (scripts/lib/local-d1.ts).
  await copyMigratedD1(databases, folder);
  const removeFolder = () => rm(folder, { recursive: true, force: true });
  const worker = await startMiniflareServer({
    wrangler: await wranglerDevApi(),
    what: 'the state database',
    workerConfig: configPath,
    persistTo: folder,
    vars: {},
    host: '127.0.0.1',
    port: 0,
    onLog: () => undefined, // the gateway logs nothing of its own; D1's errors are in its answers
    mainOnly: true,
  }).catch(async (error: Error) => {
    await removeFolder();
    throw error;
  });
  const db = d1OverHttp(worker.url.origin);
  return {
    db,
    async empty() {
      // Newest table first, so that no row is deleted before the rows that refer to it.
      const { results } = await db
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT GLOB 'sqlite_*' AND name NOT GLOB '_cf_*' AND name <> 'd1_migrations' ORDER BY rowid DESC",
        )
        .all<{ name: string }>();
      await db.batch([
        ...results.map(({ name }) => db.prepare(`DELETE FROM "${name}"`)),
        db.prepare('DELETE FROM sqlite_sequence'),
      ]);
    },
    async dispose() {
      await worker.dispose();
      await removeFolder();
    },
    removeFolder() {
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/**
 * One database per test worker, shared by the files that run in it one after another (the in-process projects share
 * one module graph per worker: `isolate: false`), emptied before each of their tests: a start is a second or two
 * of CPU (workerd, and Miniflare in this process), and a worker runs a dozen such files. It ends with the
 * worker (Miniflare stops workerd when its process exits; the folder is removed then too).
 */
let perWorker: Promise<StateDatabase> | undefined;
function workerDatabase(): Promise<StateDatabase> {
  if (perWorker === undefined) {
    perWorker = startStateDatabase();
    // A failed start is not kept: the next file tries again, and fails with its own error.
    perWorker.then(
      (database) => process.once('exit', () => database.removeFolder()),
      () => {
        perWorker = undefined;
      },
    );
  }
  return perWorker;
}

/**
 * The worker's database for the calling test file, emptied before each of its tests (and before the file's first
 * `beforeAll` that uses it, as a new database was). Registers the file's hooks; `db` is there once its `beforeAll`
 * has run.
 */
export function stateDatabaseForFile(): { readonly db: D1Database; empty(): Promise<void> } {
  let database: StateDatabase | undefined;
  const started = () => {
    if (database === undefined) throw new Error('the file’s database is started by its beforeAll');
    return database;
  };
  beforeAll(async () => {
    database = await workerDatabase();
    await database.empty();
  }, REAL_D1.timeout);
  beforeEach(() => started().empty(), REAL_D1.timeout);
  return {
    get db() {
      return started().db;
    },
    /** Empties it again within a test, as before each test. */
    empty: () => started().empty(),
  };
}
