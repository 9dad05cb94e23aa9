import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { projectRoot, runWrangler } from './tools.ts';

/**
 * The local D1 of the state database (Miniflare's, the one `wrangler dev` serves): its migrations, and the tests'
 * look into it. Migrations are applied by `wrangler d1 migrations apply`, the command a deployment runs, once per
 * set of migrations into a template state folder; a new state folder gets a copy of the template's database
 * files. A wrangler start costs two seconds of CPU, and the tests start a dozen local servers.
 */

const MIGRATIONS_DIR = path.join(projectRoot, 'migrations');
/** Kept between runs: the key names the migrations' contents, the databases and wrangler's version. */
const TEMPLATES_DIR = path.join(projectRoot, 'node_modules/.cache/departures-board/d1-templates');

/** A `d1_databases` entry of a worker config. */
export interface D1DatabaseConfig {
  binding: string;
  database_name: string;
  database_id: string;
}

/** Where a state folder (`--persist-to`) keeps its D1 databases. */
const d1FolderOf = (persistTo: string) => path.join(persistTo, 'v3', 'd1');

/**
 * Runs one SQL statement on the local state database in the state folder `persistTo` and returns its rows: the
 * tests' look into D1. Node's SQLite opens the database file workerd serves (SQLite's own locking lets both at
 * it, as `wrangler d1 execute --local` does, which would cost a wrangler start for every look).
 */
export async function queryLocalD1(persistTo: string, sql: string): Promise<Record<string, unknown>[]> {
  const folder = path.join(d1FolderOf(persistTo), 'miniflare-D1DatabaseObject');
  const files = (await readdir(folder)).filter((name) => name.endsWith('.sqlite') && name !== 'metadata.sqlite');
  if (files.length !== 1) throw new Error(`expected one local D1 database in ${folder}, found ${files.length}`);
  return queryD1File(path.join(folder, files[0] as string), sql);
}

/** Runs one SQL statement on the local D1 database file `file` (a state folder may hold several) and returns its rows. */
export function queryD1File(file: string, sql: string): Record<string, unknown>[] {
  // A busy wait: workerd may hold a write lock for a moment (or still be stopping, in the benchmark).
  const database = new DatabaseSync(file, { timeout: 5_000 });
  try {
    return database
      .prepare(sql)
      .all()
      .map((row) => ({ ...row }));
  } finally {
    database.close();
  }
}

/**
 * The state database's migrations, applied to the local D1 `databases` (a worker config's) in `persistTo`. A state
 * folder without a D1 yet gets a copy of the migrated template; one with a D1 (`npm start`'s, kept between starts)
 * gets the migrations it lacks from wrangler, and no wrangler start when it lacks none.
 */
export async function applyMigrations(databases: readonly D1DatabaseConfig[], persistTo: string): Promise<void> {
  if (!existsSync(d1FolderOf(persistTo))) await copyMigratedD1(databases, persistTo);
  else if (!(await migrationsComplete(databases, persistTo))) await migrate(databases, persistTo);
}

/**
 * Whether the state folder `persistTo` holds exactly `databases.length` local D1 databases and each has every
 * migration applied, in order, as wrangler records them (`d1_migrations`): then `wrangler d1 migrations apply`
 * would apply nothing, and its start (two seconds of CPU, and workerd once per migration) is skipped. A restart on
 * the same state (`npm start` again, a test's deploy) is that case. Anything else (a migration missing, another
 * database beside, a file that cannot be read) goes to wrangler, as before.
 */
async function migrationsComplete(databases: readonly D1DatabaseConfig[], persistTo: string): Promise<boolean> {
  const migrations = (await readdir(MIGRATIONS_DIR)).filter((file) => file.endsWith('.sql')).sort();
  const folder = path.join(d1FolderOf(persistTo), 'miniflare-D1DatabaseObject');
  try {
    const files = (await readdir(folder)).filter((name) => name.endsWith('.sqlite') && name !== 'metadata.sqlite');
    if (files.length !== databases.length) return false;
    return files.every((file) => {
      const applied = queryD1File(path.join(folder, file), 'SELECT name FROM d1_migrations ORDER BY id');
      return applied.length === migrations.length && applied.every((row, index) => row.name === migrations[index]);
    });
  } catch {
    return false; // no folder, no d1_migrations table, a file that cannot be read: wrangler decides
  }
}

/** Gives the state folder `persistTo` the migrated databases `databases`, copied from their template. */
export async function copyMigratedD1(databases: readonly D1DatabaseConfig[], persistTo: string): Promise<void> {
  const template = await migratedTemplate(databases);
  await cp(d1FolderOf(template), d1FolderOf(persistTo), { recursive: true });
}

async function migratedTemplate(databases: readonly D1DatabaseConfig[]): Promise<string> {
  const template = path.join(TEMPLATES_DIR, await templateKey(databases));
  if (existsSync(template)) return template;
  await mkdir(TEMPLATES_DIR, { recursive: true });
  const draft = await mkdtemp(path.join(TEMPLATES_DIR, 'draft-'));
  try {
    await migrate(databases, draft);
    // Renamed whole, so no process ever copies a half-migrated template; if another process got there first, its
    // template (made from the same migrations) stays.
    await rename(draft, template).catch((error: NodeJS.ErrnoException) => {
      if (!existsSync(template)) throw error;
    });
  } finally {
    await rm(draft, { recursive: true, force: true });
  }
  return template;
}

async function templateKey(databases: readonly D1DatabaseConfig[]): Promise<string> {
  const hash = createHash('sha256');
  const wrangler = JSON.parse(await readFile(path.join(projectRoot, 'node_modules/wrangler/package.json'), 'utf8'));
  hash.update(`wrangler ${(wrangler as { version: string }).version}\n`);
  for (const { binding, database_name, database_id } of databases) {
    hash.update(`${binding} ${database_name} ${database_id}\n`);
  }
  for (const file of (await readdir(MIGRATIONS_DIR)).sort()) {
    hash.update(`${file}\n`);
    hash.update(await readFile(path.join(MIGRATIONS_DIR, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * `wrangler d1 migrations apply` through a config of its own that names the migrations folder absolutely: a
 * build's config names it relative to dist/server, which a copy of the build elsewhere would not find.
 */
async function migrate(databases: readonly D1DatabaseConfig[], persistTo: string): Promise<void> {
  const folder = await mkdtemp(path.join(tmpdir(), 'departures-board-migrate-'));
  const config = path.join(folder, 'wrangler.json');
  const withMigrations = databases.map((database) => ({ ...database, migrations_dir: MIGRATIONS_DIR }));
  await writeFile(config, JSON.stringify({ name: 'departures-board-migrations', d1_databases: withMigrations }));
  try {
    const args = ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persistTo];
    await runWrangler([...args, '--config', config]);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * The migrations applied to the local D1 databases in the state folder `persistTo` (`d1_migrations`, as wrangler
 * records them), one list per database file that has that table; `null` when the folder holds no local D1 yet
 * (`npm start` makes it). Read with Node's SQLite, as the tests look into D1: no wrangler start (`npm run doctor`).
 */
export async function localAppliedMigrations(persistTo: string): Promise<string[][] | null> {
  const folder = path.join(d1FolderOf(persistTo), 'miniflare-D1DatabaseObject');
  if (!existsSync(folder)) return null;
  const files = (await readdir(folder)).filter((name) => name.endsWith('.sqlite') && name !== 'metadata.sqlite');
  const lists: string[][] = [];
  for (const file of files) {
    const database = path.join(folder, file);
    const hasTable = queryD1File(
      database,
      "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'd1_migrations'",
    );
    if (hasTable.length === 0) continue;
    lists.push(queryD1File(database, 'SELECT name FROM d1_migrations ORDER BY id').map((row) => String(row.name)));
  }
  return lists.length > 0 ? lists : null;
}
