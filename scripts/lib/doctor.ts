import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { LOCAL_STATE_DIR } from '../../src/node/local-state.ts';
import {
  type AppliedMigrations,
  checkConfigIds,
  checkMigrations,
  checkSettings,
  checkSiteUrl,
  type DoctorFindings,
  mergeFindings,
  parseWranglerConfig,
} from './doctor-checks.ts';
import { localAppliedMigrations } from './local-d1.ts';
import { projectRoot, runWrangler } from './tools.ts';

/**
 * `npm run doctor` without its command line: reads the worker config, the settings (the environment and any env
 * files), the migrations folder, the local D1 and, given a Cloudflare token and account, the remote database's
 * pending migrations and the deployed worker's secret names, then runs the checks of doctor-checks.ts.
 */

/** Runs wrangler with arguments and resolves with what it printed; a test hands in its own (nothing reaches Cloudflare). */
export type WranglerRunner = (args: string[]) => Promise<string>;

export interface DoctorOptions {
  /** The worker config; the project's wrangler.jsonc by default. */
  config?: string;
  /** Files of `NAME=value` lines (`.dev.vars`, `.env`), read over the environment: later ones win. */
  envFiles?: readonly string[];
  env?: Readonly<Record<string, string | undefined>>;
  /** The local state folder whose D1 is compared with the migrations (`npm start`'s by default). */
  persistTo?: string;
  /** Runs the remote commands; wrangler itself by default. Only called with a token and an account id. */
  wrangler?: WranglerRunner;
}

export interface DoctorResult {
  code: 0 | 1;
  lines: string[];
}

/** The settings the doctor reads, by name; values are only ever checked, never printed. */
const SETTINGS = [
  'SITE_URL',
  'REPOSITORY_URL',
  'VAPID_PUBLIC_KEY',
  'VAPID_PRIVATE_KEY',
  'VAPID_SUBJECT',
  'REVIEW_WEBHOOK_URL',
  'REVIEW_SIGNING_KEY',
  'OPS_WEBHOOK_URL',
  'TELEGRAM_BOT_TOKEN',
  'TELEGRAM_WEBHOOK_SECRET',
  'GITHUB_TOKEN',
  'GITHUB_API_URL',
  'SUBSCRIBER_CAPS',
  'ALLOW_LOOPBACK_RECEIVERS',
  'PUSH_ALLOW_LOOPBACK_RECEIVER',
  'CLOUDFLARE_API_TOKEN',
  'CLOUDFLARE_ACCOUNT_ID',
] as const;

async function readSettings(
  env: Readonly<Record<string, string | undefined>>,
  envFiles: readonly string[],
): Promise<Record<string, string | undefined>> {
  const merged: Record<string, string | undefined> = {};
  for (const name of SETTINGS) if (env[name]) merged[name] = env[name];
  for (const file of envFiles) {
    const values = parseEnv(await readFile(file, 'utf8'));
    for (const name of SETTINGS) if (values[name]) merged[name] = values[name];
  }
  return merged;
}

/** The line of a failed command that says why: wrangler's `✘ [ERROR] …`, else the first line naming an error. */
function firstLine(error: unknown): string {
  const lines = (error instanceof Error ? error.message : String(error)).split('\n').map((line) => line.trim());
  const line =
    lines.find((candidate) => /\[ERROR\]|✘/.test(candidate)) ??
    lines.find((candidate) => /error/i.test(candidate)) ??
    lines.find((candidate) => candidate !== '') ??
    'no output';
  return line.replace(/\s+/g, ' ').slice(0, 200);
}

export async function runDoctor({
  config = path.join(projectRoot, 'wrangler.jsonc'),
  envFiles = [],
  env = process.env,
  persistTo = LOCAL_STATE_DIR,
  wrangler = runWrangler,
}: DoctorOptions = {}): Promise<DoctorResult> {
  const configName = path.relative(process.cwd(), config) || config;
  const worker = parseWranglerConfig(await readFile(config, 'utf8'));
  const settings = await readSettings(env, envFiles);
  const ids = checkConfigIds(worker, configName);
  const database = ((worker.d1_databases ?? []) as { database_name?: string; migrations_dir?: string }[])[0];
  const databaseName = database?.database_name ?? 'DB';
  const migrationsDir = path.resolve(path.dirname(config), database?.migrations_dir ?? 'migrations');
  const files = existsSync(migrationsDir)
    ? (await readdir(migrationsDir)).filter((file) => file.endsWith('.sql')).sort()
    : [];

  const local = await localState(persistTo, files);
  const remoteReason = !settings.CLOUDFLARE_API_TOKEN
    ? 'CLOUDFLARE_API_TOKEN is not set (with it and CLOUDFLARE_ACCOUNT_ID the doctor asks Cloudflare)'
    : !settings.CLOUDFLARE_ACCOUNT_ID
      ? 'CLOUDFLARE_ACCOUNT_ID is not set'
      : ids.problems.some((problem) => problem.includes('d1_databases'))
        ? 'the D1 database_id is not filled in'
        : null;
  let remote: AppliedMigrations = { kind: 'skipped', reason: remoteReason ?? '' };
  let workerSecrets: string[] | null = null;
  let workerSecretsNote = `worker secrets: not listed: ${remoteReason}`;
  if (remoteReason === null) {
    try {
      const output = await wrangler(['d1', 'migrations', 'list', databaseName, '--remote', '--config', config]);
      remote = { kind: 'pending', names: files.filter((file) => output.includes(file)) };
    } catch (error) {
      remote = { kind: 'failed', reason: firstLine(error) };
    }
    try {
      const output = await wrangler(['secret', 'list', '--format', 'json', '--config', config]);
      const list = JSON.parse(output.slice(output.indexOf('['))) as { name: string }[];
      workerSecrets = list.map(({ name }) => name);
    } catch (error) {
      // Before the first deploy there is no worker to list: its secrets are then the environment's to say.
      workerSecretsNote = `worker secrets: not listed (${firstLine(error)}); a worker that does not exist yet has none`;
    }
  }

  const findings: DoctorFindings = mergeFindings(
    ids,
    checkSiteUrl(settings.SITE_URL),
    checkSettings({ env: settings, workerSecrets, workerSecretsNote }),
    checkMigrations('local', files, local, databaseName),
    checkMigrations('remote', files, remote, databaseName),
  );
  if (findings.problems.length > 0) {
    const count = findings.problems.length;
    return {
      code: 1,
      lines: [
        ...findings.problems.map((problem) => `problem: ${problem}`),
        `doctor: ${count} ${count === 1 ? 'problem' : 'problems'}; fix ${count === 1 ? 'it' : 'them'} and run npm run doctor again (docs/deploy.md)`,
      ],
    };
  }
  return { code: 0, lines: [...findings.notes.map((note) => `ok: ${note}`), 'doctor: no problems; ready to deploy'] };
}

async function localState(persistTo: string, files: readonly string[]): Promise<AppliedMigrations> {
  let lists: string[][] | null;
  try {
    lists = await localAppliedMigrations(persistTo);
  } catch (error) {
    return { kind: 'failed', reason: `the local D1 in ${persistTo} could not be read (${firstLine(error)})` };
  }
  if (lists === null) return { kind: 'skipped', reason: `no local D1 in ${persistTo} yet (npm start makes one)` };
  // Several local databases (an older push database beside this one): the one with most of this folder's migrations.
  const best = lists.reduce((a, b) =>
    b.filter((name) => files.includes(name)).length > a.filter((name) => files.includes(name)).length ? b : a,
  );
  return { kind: 'applied', names: best };
}
