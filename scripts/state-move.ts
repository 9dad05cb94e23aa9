import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { projectRoot, runWrangler } from './lib/tools.ts';

/**
 * `npm run state:move`: moves a deployment's older state database (`departures-board-push`, binding `PUSH_DB`,
 * migrations 0001–0007) into the database named for the service (`departures-board`, binding `DB`): the old one is
 * exported whole (its rows and its record of applied migrations), imported into the new, empty one, and the
 * migrations are applied, so that 0008 moves every subscriber into the one set of tables (docs/delivery.md, "Running
 * it locally and deploying"). The old database is left as it was.
 *
 *   npm run state:move -- --from departures-board-push --to departures-board --remote
 *   npm run state:move -- --from-id <old id> --to-id <new id> --local --persist-to <state folder>
 *
 * Remote databases are found by name (wrangler's account); local ones by their ids (the `database_id` each had in
 * wrangler.jsonc: a local D1's file is named for its id).
 */

const USAGE =
  'usage: npm run state:move -- (--remote | --local [--persist-to <folder>]) [--from <name>] [--to <name>] [--from-id <id>] [--to-id <id>]';

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
  const dump = path.join(folder, 'old.sql');
  console.log(`1/3 exporting ${values.from}…`);
  await runWrangler(['d1', 'export', values.from, ...where, '--output', dump, '--config', config]);
  console.log(`2/3 importing it into ${values.to}…`);
  await runWrangler(['d1', 'execute', values.to, ...where, '--file', dump, '--yes', '--config', config]);
  console.log(`3/3 applying the migrations to ${values.to}…`);
  await runWrangler(['d1', 'migrations', 'apply', values.to, ...where, '--config', config]);
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
