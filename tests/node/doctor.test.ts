import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runDoctor, type WranglerRunner } from '../../scripts/lib/doctor.ts';
import { copyMigratedD1 } from '../../scripts/lib/local-d1.ts';
import { projectRoot } from '../../scripts/lib/tools.ts';
import { scaled } from '../../scripts/lib/load-scaled.ts';
import { tempFolder } from '../support/temp-folders.ts';

/**
 * `npm run doctor` (docs/deploy.md) on the shipped config, which must fail naming each placeholder and SITE_URL,
 * and on a filled-in copy, which passes. Nothing reaches Cloudflare: the command runs without a token, and the
 * remote checks are given a stand-in for wrangler.
 */

const D1_ID = '6f1c2b9e-3a4d-4e5f-8a7b-1c2d3e4f5a6b';
const KV_ID = '0123456789abcdef0123456789abcdef';
const DISCORD = 'https://discord.com/api/webhooks/123/review-token';

let folder: string;
/** The migrations as they are when the test runs (another may have been added since it was written). */
let migrations: string[];
let filledConfig: string;
let emptyState: string;
let migratedState: string;

/** A fresh VAPID trio, made as docs/deploy.md says. */
function vapid() {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const point = publicKey.export({ format: 'jwk' });
  return {
    VAPID_PUBLIC_KEY: Buffer.concat([
      Buffer.from([4]),
      Buffer.from(point.x!, 'base64url'),
      Buffer.from(point.y!, 'base64url'),
    ]).toString('base64url'),
    VAPID_PRIVATE_KEY: privateKey.export({ format: 'jwk' }).d!,
    VAPID_SUBJECT: 'mailto:ops@board.example.org',
  };
}

/** The environment of the command: the machine's PATH and nothing of the test runner's settings. */
const bareEnv = (settings: Record<string, string> = {}) => ({ PATH: process.env.PATH ?? '', ...settings });

function doctor(args: string[], env: Record<string, string>) {
  const run = spawnSync(process.execPath, ['scripts/doctor.ts', ...args], { cwd: projectRoot, env, encoding: 'utf8' });
  return { code: run.status, lines: run.stdout.trim().split('\n'), stderr: run.stderr };
}

beforeAll(async () => {
  migrations = (await readdir(path.join(projectRoot, 'migrations'))).filter((file) => file.endsWith('.sql')).sort();
  folder = tempFolder('doctor');
  const shipped = await readFile(path.join(projectRoot, 'wrangler.jsonc'), 'utf8');
  // The operator's edit: the two ids wrangler printed, the migrations where they are.
  const filled = shipped
    .replace('00000000-0000-4000-8000-00000000000d', D1_ID)
    .replace('source-health-placeholder-id', KV_ID)
    .replace(
      '"migrations_dir": "migrations"',
      `"migrations_dir": ${JSON.stringify(path.join(projectRoot, 'migrations'))}`,
    )
    .replace(
      '"main": "./functions/worker.ts"',
      `"main": ${JSON.stringify(path.join(projectRoot, 'functions/worker.ts'))}`,
    );
  filledConfig = path.join(folder, 'wrangler.jsonc');
  await writeFile(filledConfig, filled);
  emptyState = path.join(folder, 'empty-state');
  migratedState = path.join(folder, 'migrated-state');
  await copyMigratedD1([{ binding: 'DB', database_name: 'departures-board', database_id: D1_ID }], migratedState);
}, scaled(60_000));

describe('npm run doctor', () => {
  it('fails on the shipped config, naming each placeholder and the missing SITE_URL, one line with its fix each', () => {
    const { code, lines } = doctor(['--persist-to', emptyState], bareEnv());
    expect(lines).toEqual([
      'problem: wrangler.jsonc d1_databases[0].database_id (binding DB) is the placeholder "00000000-0000-4000-8000-00000000000d": run `npx wrangler d1 create departures-board` and put the database_id it prints there',
      'problem: wrangler.jsonc kv_namespaces[0].id (binding SOURCE_HEALTH) is the placeholder "source-health-placeholder-id": run `npx wrangler kv namespace create SOURCE_HEALTH` and put the id it prints there',
      'problem: SITE_URL is not set: set it to the public https address, e.g. SITE_URL=https://board.example.org (in GitHub: the repository variable SITE_URL)',
      'doctor: 3 problems; fix them and run npm run doctor again (docs/deploy.md)',
    ]);
    expect(code).toBe(1);
  });

  it('passes on a filled-in copy, saying what is on and off and that remote checks need a token', () => {
    const { code, lines } = doctor(
      ['--config', filledConfig, '--persist-to', migratedState],
      bareEnv({ SITE_URL: 'https://board.example.org' }),
    );
    expect(lines).toEqual([
      'ok: SITE_URL: https://board.example.org',
      'ok: VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT: absent: browser push is off (503 push_unavailable); Discord, Slack and WebSub work without them',
      'ok: REVIEW_WEBHOOK_URL: absent: new drafts are kept in D1 and no reviewer is told (docs/watch.md)',
      'ok: REVIEW_SIGNING_KEY: absent: review messages carry no confirm link (the web-editor link alone), and /review/<id> answers 404 (docs/watch.md)',
      'ok: OPS_WEBHOOK_URL: absent: no alert is sent when a part turns failing; /api/health still says it (docs/health.md)',
      'ok: TELEGRAM_BOT_TOKEN, TELEGRAM_WEBHOOK_SECRET: absent: no Telegram bot (POST /telegram answers 401)',
      'ok: GITHUB_TOKEN: absent: confirmed events are not committed to git, and review messages keep the web-editor link alone (docs/deploy.md)',
      'ok: REPOSITORY_URL: absent here (deploy.yml sets it for the build): without it the pages show no commit or report links',
      'ok: worker secrets: not listed: CLOUDFLARE_API_TOKEN is not set (with it and CLOUDFLARE_ACCOUNT_ID the doctor asks Cloudflare)',
      `ok: migrations (local): all ${migrations.length} applied`,
      'ok: migrations (remote): not checked: CLOUDFLARE_API_TOKEN is not set (with it and CLOUDFLARE_ACCOUNT_ID the doctor asks Cloudflare)',
      'doctor: no problems; ready to deploy',
    ]);
    expect(code).toBe(0);
  });

  it('reads the secrets from an env file, checks their form, and never prints a value', async () => {
    const keys = vapid();
    const envFile = path.join(folder, 'good.dev.vars');
    await writeFile(
      envFile,
      `# a .dev.vars-style file\n${Object.entries(keys)
        .map(([name, value]) => `${name}=${value}`)
        .join(
          '\n',
        )}\nREVIEW_WEBHOOK_URL="${DISCORD}"\nSITE_URL=https://board.example.org\nTELEGRAM_BOT_TOKEN=123:bot-token\nTELEGRAM_WEBHOOK_SECRET=hook-secret\nGITHUB_TOKEN=github_pat_doctor\nREVIEW_SIGNING_KEY=${'k'.repeat(44)}\n`,
    );
    const good = doctor(['--config', filledConfig, '--persist-to', migratedState, '--env-file', envFile], bareEnv());
    expect(good.code).toBe(0);
    expect(good.lines).toContain('ok: VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT: set: browser push is on');
    expect(good.lines).toContain('ok: REVIEW_WEBHOOK_URL: set: each new draft is sent to the review channel');
    expect(good.lines).toContain(
      'ok: TELEGRAM_BOT_TOKEN, TELEGRAM_WEBHOOK_SECRET: set: the Telegram bot answers and delivers',
    );
    expect(good.lines).toContain('ok: GITHUB_TOKEN: set: confirmed events are committed to git');
    expect(good.lines).toContain(
      'ok: REVIEW_SIGNING_KEY: set: review messages carry the confirm link to the review page (docs/watch.md)',
    );
    expect(good.lines.join('\n')).not.toContain('github_pat_doctor');

    const badFile = path.join(folder, 'bad.dev.vars');
    await writeFile(
      badFile,
      `VAPID_PUBLIC_KEY=${keys.VAPID_PUBLIC_KEY}\nREVIEW_WEBHOOK_URL=http://discord.com/api/webhooks/1/review-token\nOPS_WEBHOOK_URL=https://ops.example.org/hook\nSITE_URL=http://localhost:4321\nALLOW_LOOPBACK_RECEIVERS=true\nTELEGRAM_BOT_TOKEN=123:bot-token\nGITHUB_API_URL=http://127.0.0.1:9\nREVIEW_SIGNING_KEY=short-signing-key\n`,
    );
    const bad = doctor(['--config', filledConfig, '--persist-to', migratedState, '--env-file', badFile], bareEnv());
    expect(bad.code).toBe(1);
    expect(bad.lines).toEqual([
      'problem: SITE_URL points at this machine (localhost:4321): set it to the public https address, e.g. SITE_URL=https://board.example.org (in GitHub: the repository variable SITE_URL)',
      'problem: VAPID_PRIVATE_KEY, VAPID_SUBJECT absent while VAPID_PUBLIC_KEY set: push needs all three and stays off; put the missing ones with `npx wrangler secret put <NAME>` (docs/deploy.md, "Secrets")',
      'problem: REVIEW_WEBHOOK_URL is not a Discord (https://discord.com/api/webhooks/<id>/<token>) or Slack (https://hooks.slack.com/services/…) webhook, so review messages cannot be sent: set it again with `npx wrangler secret put REVIEW_WEBHOOK_URL`',
      'problem: REVIEW_SIGNING_KEY is shorter than 32 characters: make a random one (`openssl rand -base64 32`) and set it with `npx wrangler secret put REVIEW_SIGNING_KEY`',
      'problem: OPS_WEBHOOK_URL is not a Discord (https://discord.com/api/webhooks/<id>/<token>) or Slack (https://hooks.slack.com/services/…) webhook, so alerts cannot be sent: set it again with `npx wrangler secret put OPS_WEBHOOK_URL`',
      "problem: TELEGRAM_WEBHOOK_SECRET is missing while its pair is set: set both (the bot's token from BotFather, and the secret given to setWebhook), or neither",
      'problem: GITHUB_API_URL is not an https address: leave it out (https://api.github.com is the default); a loopback API is for tests only',
      'problem: ALLOW_LOOPBACK_RECEIVERS (or PUSH_ALLOW_LOOPBACK_RECEIVER) is set: a test switch that lets every outbound address be this machine; remove it from the deployment',
      'doctor: 8 problems; fix them and run npm run doctor again (docs/deploy.md)',
    ]);
    const printed = [...good.lines, ...bad.lines].join('\n');
    for (const secret of [
      keys.VAPID_PUBLIC_KEY,
      keys.VAPID_PRIVATE_KEY,
      'review-token',
      'bot-token',
      'hook-secret',
      'short-signing-key',
      'k'.repeat(44),
    ])
      expect(printed).not.toContain(secret);
  });

  it('says when the local D1 lacks migrations, and that npm start makes one when there is none', async () => {
    const settings = { SITE_URL: 'https://board.example.org' };
    const empty = await runDoctor({ config: filledConfig, env: settings, persistTo: emptyState });
    expect(empty.lines).toContain(
      `ok: migrations (local): not checked: no local D1 in ${emptyState} yet (npm start makes one)`,
    );
  });

  it('with a token, asks wrangler for the remote pending migrations and the worker secret names (a stand-in here)', async () => {
    const calls: string[][] = [];
    const wrangler: WranglerRunner = async (args) => {
      calls.push(args);
      if (args[0] === 'd1')
        return `Migrations to be applied:\n┌──────────────────┐\n│ Name             │\n├──────────────────┤\n${migrations.map((name) => `│ ${name} │\n`).join('')}└──────────────────┘\n`;
      return '[{"name":"VAPID_PUBLIC_KEY","type":"secret_text"},{"name":"VAPID_PRIVATE_KEY","type":"secret_text"},{"name":"VAPID_SUBJECT","type":"secret_text"},{"name":"REVIEW_WEBHOOK_URL","type":"secret_text"}]';
    };
    const env = { SITE_URL: 'https://board.example.org', CLOUDFLARE_API_TOKEN: 't', CLOUDFLARE_ACCOUNT_ID: 'a' };
    const result = await runDoctor({ config: filledConfig, env, persistTo: migratedState, wrangler });
    expect(result.code).toBe(0);
    expect(calls).toEqual([
      ['d1', 'migrations', 'list', 'departures-board', '--remote', '--config', filledConfig],
      ['secret', 'list', '--format', 'json', '--config', filledConfig],
    ]);
    expect(result.lines).toContain(
      'ok: VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT: set in the worker: browser push is on',
    );
    expect(result.lines).toContain(
      'ok: REVIEW_WEBHOOK_URL: set in the worker: each new draft is sent to the review channel',
    );
    expect(result.lines).toContain(
      `ok: migrations (remote): ${migrations.length} of ${migrations.length} pending (${migrations.join(', ')}): \`npx wrangler d1 migrations apply departures-board --remote\` applies them (deploy.yml does, before the deploy)`,
    );

    // A database the token cannot read (a wrong id, or no D1 permission) is a problem; a worker not deployed yet is not.
    const failing: WranglerRunner = async () => {
      throw new Error(
        'wrangler d1 migrations failed (1):\n✘ [ERROR] A request to the Cloudflare API failed. Authentication error [code: 10000]',
      );
    };
    const denied = await runDoctor({ config: filledConfig, env, persistTo: migratedState, wrangler: failing });
    expect(denied.code).toBe(1);
    expect(denied.lines[0]).toBe(
      'problem: migrations (remote): `wrangler d1 migrations list departures-board --remote` failed (✘ [ERROR] A request to the Cloudflare API failed. Authentication error [code: 10000]): check the database_id and that the token has "D1: Edit"',
    );
  });
});
