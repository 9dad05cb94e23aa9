import { execFileSync, spawnSync } from 'node:child_process';
import { createECDH } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseWranglerConfig } from '../../scripts/lib/doctor-checks.ts';
import { projectRoot, quietToolEnv } from '../../scripts/lib/tools.ts';

/**
 * docs/deploy.md: its VAPID command works on the project's Node and on Node 20 (the oldest the README allows on the
 * machine), it names every binding and secret, and traces stay off in production and locally.
 */

const doc = readFileSync(path.join(projectRoot, 'docs/deploy.md'), 'utf8');
const config = parseWranglerConfig(readFileSync(path.join(projectRoot, 'wrangler.jsonc'), 'utf8')) as {
  observability: { traces?: { enabled?: boolean }; logs?: { enabled?: boolean } };
  d1_databases: { binding: string; database_name: string }[];
  kv_namespaces: { binding: string }[];
  queues: {
    producers: { binding: string; queue: string }[];
    consumers: { queue: string; dead_letter_queue?: string }[];
  };
  ratelimits: { name: string }[];
};

/** The `node -e "…"` line under the vapid-command marker, as an operator pastes it. */
const vapidCommand = (() => {
  const match = /<!-- vapid-command[^>]*-->\s*```sh\n(node -e "(.+)")\n```/.exec(doc);
  if (!match) throw new Error('docs/deploy.md has no VAPID command under its marker');
  return match[2] as string;
})();

function checkPair(output: string) {
  const values = Object.fromEntries(
    output
      .trim()
      .split('\n')
      .map((line) => line.split('=', 2) as [string, string]),
  );
  expect(Object.keys(values)).toEqual(['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY']);
  const publicKey = Buffer.from(values.VAPID_PUBLIC_KEY!, 'base64url');
  const privateKey = Buffer.from(values.VAPID_PRIVATE_KEY!, 'base64url');
  expect(publicKey).toHaveLength(65);
  expect(publicKey[0]).toBe(4);
  expect(privateKey).toHaveLength(32);
  // The two halves of one pair: the private scalar gives the public point.
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(privateKey);
  expect(ecdh.getPublicKey().equals(publicKey)).toBe(true);
}

/** A Node 20 on the machine's PATH (the README's minimum), if there is one. */
const node20 = (() => {
  for (const candidate of ['/usr/bin/node', 'node']) {
    const run = spawnSync(candidate, ['--version'], { encoding: 'utf8' });
    if (run.status === 0 && run.stdout.startsWith('v20.')) return candidate;
  }
  return null;
})();

describe('docs/deploy.md', () => {
  it("the VAPID command prints a matching P-256 pair with the project's Node", () => {
    checkPair(execFileSync(process.execPath, ['-e', vapidCommand], { encoding: 'utf8' }));
  });

  it.skipIf(node20 === null)('the VAPID command works on Node 20', () => {
    checkPair(execFileSync(node20 as string, ['-e', vapidCommand], { encoding: 'utf8' }));
  });

  it('names every binding of wrangler.jsonc and the command that makes each resource', () => {
    for (const { binding, database_name } of config.d1_databases) {
      expect(doc).toContain(`\`${binding}\``);
      expect(doc).toContain(`npx wrangler d1 create ${database_name}`);
    }
    for (const { binding } of config.kv_namespaces)
      expect(doc).toContain(`npx wrangler kv namespace create ${binding}`);
    for (const { binding } of config.queues.producers) expect(doc).toContain(`\`${binding}\``);
    for (const { queue, dead_letter_queue } of config.queues.consumers) {
      expect(doc).toContain(`npx wrangler queues create ${queue}`);
      if (dead_letter_queue) expect(doc).toContain(`npx wrangler queues create ${dead_letter_queue}`);
    }
    for (const { name } of config.ratelimits) expect(doc).toContain(`\`${name}\``);
  });

  it('names every secret and setting the worker and the workflows read, and every token permission', () => {
    for (const name of [
      'VAPID_PUBLIC_KEY',
      'VAPID_PRIVATE_KEY',
      'VAPID_SUBJECT',
      'REVIEW_WEBHOOK_URL',
      'OPS_WEBHOOK_URL',
      'SUBSCRIBER_CAPS',
      'SITE_URL',
      'REPOSITORY_URL',
      'CLOUDFLARE_API_TOKEN',
      'CLOUDFLARE_ACCOUNT_ID',
    ])
      expect(doc).toContain(`\`${name}\``);
    for (const permission of ['Workers Scripts: Edit', 'D1: Edit', 'Queues: Edit', 'Workers KV Storage: Edit'])
      expect(doc).toContain(permission);
  });

  it('every table of the migrations has its retention written down', () => {
    const sql = readFileSync(path.join(projectRoot, 'migrations/0001_state.sql'), 'utf8');
    const tables = [...sql.matchAll(/^CREATE TABLE (\w+)/gm)].map((match) => match[1] as string);
    expect(tables.length).toBeGreaterThan(0);
    for (const table of tables) expect(doc).toMatch(new RegExp(`^\\| \`${table}\` `, 'm'));
  });
});

describe('traces', () => {
  it('are off in production and logs on (a trace keeps each outgoing fetch URL: webhooks and push endpoints)', () => {
    expect(config.observability.traces?.enabled).toBe(false);
    expect(config.observability.logs?.enabled).toBe(true);
  });

  it("are off locally: the tools' environment turns off the local trace store, by the name wrangler still reads", () => {
    expect(quietToolEnv.X_LOCAL_OBSERVABILITY).toBe('false');
    for (const file of [
      'node_modules/wrangler/wrangler-dist/cli.js',
      'node_modules/@cloudflare/vite-plugin/dist/index.mjs',
    ])
      expect(readFileSync(path.join(projectRoot, file), 'utf8'), file).toContain(
        'variableName: "X_LOCAL_OBSERVABILITY"',
      );
    expect(readFileSync(path.join(projectRoot, 'astro.config.mjs'), 'utf8')).toContain(
      "process.env.X_LOCAL_OBSERVABILITY ??= 'false'",
    );
  });
});
