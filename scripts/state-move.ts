import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync, type SQLOutputValue } from 'node:sqlite';
import { parseArgs } from 'node:util';
import { projectRoot, runWrangler } from './lib/tools.ts';

/**
 * `npm run state:move`: moves a deployment's older state database (`departures-board-push`, binding `PUSH_DB`,
 * its migrations 0001–0007) into the database named for the service (`departures-board`, binding `DB`), once. The
 * old database is exported whole; its rows are turned into the new tables here, in SQLite (scripts/state-move.sql);
 * the new database gets its migrations (migrations/) and then those rows. The old database is left as it was. Not a
 * migration of the new database: its migrations stay additive from the first (docs/delivery.md, "Running it locally
 * and deploying").
 *
 *   npm run state:move -- --remote [--from departures-board-push] [--to departures-board]
 *   npm run state:move -- --local --from-id <old id> --to-id <new id> [--persist-to <state folder>]
 *
 * Remote databases are found by name (wrangler's account); local ones by their ids (the `database_id` each had in
 * wrangler.jsonc: a local D1's file is named for its id).
 */

const USAGE =
  'usage: npm run state:move -- (--remote | --local --from-id <id> --to-id <id> [--persist-to <folder>]) [--from <name>] [--to <name>]';

const { values } = parseArgs({
  options: {
    from: { type: 'string', default: 'departures-board-push' },
    to: { type: 'string', default: 'departures-board' },
    'from-id': { type: 'string' },
    'to-id': { type: 'string' },
    remote: { type: 'boolean', default: false },
    local: { type: 'boolean', default: false },
    'persist-to': { type: 'string' },
  },
});

if (values.remote === values.local) {
  console.error(`Say where the databases are: --remote (your Cloudflare account) or --local.\n${USAGE}`);
  process.exit(2);
}
if (values.local && (values['from-id'] === undefined || values['to-id'] === undefined)) {
  console.error(
    `A local move needs both databases' ids (--from-id, --to-id): a local D1's file is named for its id.\n${USAGE}`,
  );
  process.exit(2);
}

/** A value as an SQL literal: what `wrangler d1 execute --file` reads back as the same value. */
function literal(value: SQLOutputValue): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'string') return `'${value.replaceAll("'", "''")}'`;
  return `X'${Buffer.from(value).toString('hex')}'`;
}

/**
 * Every row of the new tables as INSERT statements, parents before children (the order migrations/ made them). Not
 * `journal_version`: its one row is the new database's own, written by its migration (0003).
 */
function rowsAsSql(database: DatabaseSync): string {
  const tables = database
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT IN ('d1_migrations', 'journal_version') ORDER BY rowid",
    )
    .all()
    .map((row) => String(row['name']));
  const lines: string[] = [];
  for (const table of tables)
    for (const row of database.prepare(`SELECT * FROM "${table}"`).all()) {
      const columns = Object.keys(row);
      const valuesSql = columns.map((column) => literal(row[column] ?? null)).join(', ');
      lines.push(
        `INSERT INTO "${table}" (${columns.map((column) => `"${column}"`).join(', ')}) VALUES (${valuesSql});`,
      );
    }
  return lines.join('\n');
}

const where = values.remote ? ['--remote'] : ['--local'];
const folder = await mkdtemp(path.join(tmpdir(), 'departures-board-state-move-'));
try {
  // Locally, wrangler's d1 commands read `.wrangler/state` beside their config (`d1 export` takes no --persist-to):
  // the state folder to move (`npm start`'s by default) is linked there.
  if (values.local) {
    await mkdir(path.join(folder, '.wrangler'));
    const state = path.resolve(values['persist-to'] ?? path.join(projectRoot, '.wrangler/state'));
    await symlink(state, path.join(folder, '.wrangler/state'), 'dir');
  }
  const config = path.join(folder, 'wrangler.json');
  const database = (binding: string, name: string, id: string | undefined) => ({
    binding,
    database_name: name,
    ...(id === undefined ? {} : { database_id: id }),
    migrations_dir: path.join(projectRoot, 'migrations'),
  });
  await writeFile(
    config,
    JSON.stringify({
      name: 'departures-board-state-move',
      d1_databases: [database('OLD', values.from, values['from-id']), database('DB', values.to, values['to-id'])],
    }),
  );

  console.log(`1/4 exporting ${values.from}…`);
  const dump = path.join(folder, 'old.sql');
  await runWrangler(['d1', 'export', values.from, ...where, '--output', dump, '--config', config]);

  console.log('2/4 turning its rows into the new tables…');
  const oldFile = path.join(folder, 'old.sqlite');
  const old = new DatabaseSync(oldFile);
  old.exec(await readFile(dump, 'utf8'));
  old.close();
  const next = new DatabaseSync(':memory:');
  for (const file of (await readdir(path.join(projectRoot, 'migrations')))
    .filter((name) => name.endsWith('.sql'))
    .sort())
    next.exec(await readFile(path.join(projectRoot, 'migrations', file), 'utf8'));
  next.exec(`ATTACH DATABASE '${oldFile.replaceAll("'", "''")}' AS old`);
  next.exec(await readFile(path.join(projectRoot, 'scripts/state-move.sql'), 'utf8'));
  next.exec('DETACH DATABASE old');
  const rows = path.join(folder, 'rows.sql');
  await writeFile(rows, rowsAsSql(next));
  next.close();

  console.log(`3/4 applying the migrations to ${values.to}…`);
  await runWrangler(['d1', 'migrations', 'apply', values.to, ...where, '--config', config]);
  const counted = await runWrangler([
    'd1',
    'execute',
    values.to,
    ...where,
    '--json',
    '--command',
    'SELECT (SELECT COUNT(*) FROM subscribers) + (SELECT COUNT(*) FROM notifications) + (SELECT COUNT(*) FROM watch_drafts) AS n',
    '--config',
    config,
  ]);
  if (!/"n":\s*0\b/.test(counted))
    throw new Error(`${values.to} already holds subscribers, claims or drafts; the move is for an empty database.`);

  console.log(`4/4 writing the rows into ${values.to}…`);
  await runWrangler(['d1', 'execute', values.to, ...where, '--file', rows, '--yes', '--config', config]);
  console.log(
    `Moved. ${values.to} holds every subscriber; deploy, then delete ${values.from} when the new worker serves.`,
  );
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  console.error(
    `Nothing was changed in ${values.from}. If ${values.to} was not empty, start again with a new, empty one.`,
  );
  process.exitCode = 1;
} finally {
  await rm(folder, { recursive: true, force: true });
}
