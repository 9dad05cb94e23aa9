import { spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startServer, type RunningServer } from '../scripts/lib/local-server.ts';
import { ASTRO_TURN_TIMEOUT_MS, giveBackAstroTurn, takeAstroTurn } from './support/astro-turn.ts';

/**
 * What a deployment does with the project: a copy whose sample events and marker are replaced by a few real
 * events (one provider folder missing), and then by nothing at all. `npm run validate` and `astro build` run
 * in the copy, with the default paths (content/events, content/dataset.json) and no EVENTS_DIR.
 */

const PROJECT = path.resolve(import.meta.dirname, '..');
const PARTS = [
  'astro.config.mjs',
  'package.json',
  'tsconfig.json',
  'wrangler.jsonc',
  'worker-configuration.d.ts',
  'src',
  'functions',
  'public',
  'scripts',
  'content',
];

const realEvent = (fields: {
  id: string;
  provider: string;
  kind: string;
  announcedAt: string;
  sourceUrl: string;
  sourceAccount: string;
  summary: string;
  verified?: boolean;
  scope?: string;
}) => ({
  id: fields.id,
  provider: fields.provider,
  kind: fields.kind,
  scope: fields.scope ?? 'global',
  announcedAt: fields.announcedAt,
  effectiveAt: null,
  sourceUrl: fields.sourceUrl,
  sourceAccount: fields.sourceAccount,
  summary: fields.summary,
  audience: [],
  verified: fields.verified ?? true,
});

/** A handful of events as a real deployment would keep them: real https hosts, no provider_c folder at all. */
const REAL_EVENTS = [
  realEvent({
    id: '1856000000000000101',
    provider: 'provider_a',
    kind: 'reset',
    announcedAt: '2026-08-04T16:20:00.000Z',
    sourceUrl: 'https://x.com/provider_a/status/1856000000000000101',
    sourceAccount: 'provider_a',
    summary: 'We have reset usage limits for all plans.',
  }),
  realEvent({
    id: '1859000000000000202',
    provider: 'provider_a',
    kind: 'reset',
    announcedAt: '2026-09-01T09:05:00.000Z',
    sourceUrl: 'https://x.com/provider_a/status/1859000000000000202',
    sourceAccount: 'provider_a',
    summary: 'Limits are reset again after the outage.',
  }),
  realEvent({
    id: '1861000000000000303',
    provider: 'provider_a',
    kind: 'boost',
    announcedAt: '2026-10-12T12:00:00.000Z',
    sourceUrl: 'https://x.com/provider_a/status/1861000000000000303',
    sourceAccount: 'provider_a',
    summary: 'Pro limits doubled this weekend.',
    scope: 'plan:pro',
  }),
  realEvent({
    id: '3m2xyzabc',
    provider: 'provider_b',
    kind: 'reset',
    announcedAt: '2026-10-20T22:45:00.000Z',
    sourceUrl: 'https://bsky.app/profile/provider-b.com/post/3m2xyzabc',
    sourceAccount: 'provider-b.com',
    summary: 'Weekly limits were reset for everyone.',
  }),
  realEvent({
    id: '3m3draft',
    provider: 'provider_b',
    kind: 'tease',
    announcedAt: '2026-11-02T08:00:00.000Z',
    sourceUrl: 'https://bsky.app/profile/provider-b.com/post/3m3draft',
    sourceAccount: 'provider-b.com',
    summary: 'Something about limits is coming.',
    verified: false,
  }),
];
/** The published ones, newest first, written out by hand. */
const PUBLISHED_IDS = ['3m2xyzabc', '1861000000000000303', '1859000000000000202', '1856000000000000101'];

const NO_SAMPLE_WORDS = /sample data|fictional|示例数据|虚构/i;

let copy: string;
let server: RunningServer | undefined;

/** The environment of a deployment: no EVENTS_DIR, the project's own folders. */
function deploymentEnv(siteUrl: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, SITE_URL: siteUrl, ASTRO_TELEMETRY_DISABLED: '1', NO_COLOR: '1' };
  delete env.EVENTS_DIR;
  return env;
}

const validateInCopy = () =>
  spawnSync(process.execPath, ['scripts/validate.ts'], {
    cwd: copy,
    env: deploymentEnv('http://127.0.0.1:1'),
    encoding: 'utf8',
  });

function buildInCopy(siteUrl: string, outDir: string) {
  const astro = path.join(copy, 'node_modules/astro/bin/astro.mjs');
  const run = spawnSync(process.execPath, [astro, 'build', '--outDir', outDir], {
    cwd: copy,
    env: deploymentEnv(siteUrl),
    encoding: 'utf8',
  });
  if (run.status !== 0)
    throw new Error(`astro build failed in the copy (${run.status}):\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}

beforeAll(async () => {
  // The copy's node_modules is a link to the project's: its builds share the project's Astro caches.
  await takeAstroTurn();
  copy = await mkdtemp(path.join(tmpdir(), 'departures-board-deployment-'));
  for (const part of PARTS) await cp(path.join(PROJECT, part), path.join(copy, part), { recursive: true });
  await symlink(path.join(PROJECT, 'node_modules'), path.join(copy, 'node_modules'));
  // "Replacing the sample data" (README): delete the sample events and the marker, add real events.
  await rm(path.join(copy, 'content/events'), { recursive: true });
  await rm(path.join(copy, 'content/dataset.json'));
  for (const event of REAL_EVENTS) {
    await mkdir(path.join(copy, 'content/events', event.provider), { recursive: true });
    await writeFile(
      path.join(copy, 'content/events', event.provider, `${event.id}.json`),
      `${JSON.stringify(event, null, 2)}\n`,
    );
  }
}, ASTRO_TURN_TIMEOUT_MS);

afterAll(async () => {
  await server?.stop();
  await rm(copy, { recursive: true, force: true });
  await giveBackAstroTurn();
});

describe('a copy of the project with real events instead of the sample set', () => {
  it('validates, builds and serves them, without a word or header about sample data', async () => {
    const validation = validateInCopy();
    expect(validation.stderr).toBe('');
    expect(validation.status).toBe(0);
    expect(validation.stdout.trim()).toBe('content/events: 5 valid event files (4 published, 1 drafts).');

    const port = await freePort();
    const outDir = path.join(copy, 'dist');
    buildInCopy(`http://127.0.0.1:${port}`, outDir);
    expect(await readFile(path.join(outDir, 'client/_headers'), 'utf8')).not.toMatch(/X-Sample-Data/i);

    server = await startServer({ port, workerConfig: path.join(outDir, 'server/wrangler.json') });
    const timeline = await fetch(`${server.baseUrl}/api/timeline?limit=50`);
    expect(((await timeline.json()) as { events: { id: string }[] }).events.map((event) => event.id)).toEqual(
      PUBLISHED_IDS,
    );
    for (const page of [
      '/',
      '/zh',
      '/provider_c',
      '/about',
      '/index.md',
      '/zh/index.md',
      '/api/status',
      '/favicon.svg',
      '/data/board.json',
      '/no-such-page',
    ]) {
      const response = await fetch(`${server.baseUrl}${page}`);
      expect(response.status, page).toBe(page === '/no-such-page' ? 404 : 200);
      expect(response.headers.get('X-Sample-Data'), page).toBeNull();
      expect(await response.text(), page).not.toMatch(NO_SAMPLE_WORDS);
    }
    await server.stop();
    server = undefined;
  }, 300_000);

  it('validates and builds an empty tree: an empty folder, and no folder at all as a fresh clone has', async () => {
    await rm(path.join(copy, 'content/events'), { recursive: true });
    await mkdir(path.join(copy, 'content/events'));
    const emptyFolder = validateInCopy();
    expect(emptyFolder.status).toBe(0);
    expect(emptyFolder.stdout.trim()).toBe('content/events: 0 valid event files (0 published, 0 drafts).');

    // git keeps no empty folder: a clone of a project whose events were all deleted has no content/events.
    await rm(path.join(copy, 'content/events'), { recursive: true });
    const noFolder = validateInCopy();
    expect(noFolder.status).toBe(0);
    expect(noFolder.stdout.trim()).toBe('content/events: 0 valid event files (0 published, 0 drafts).');

    const outDir = path.join(copy, 'dist-empty');
    buildInCopy('http://127.0.0.1:1', outDir);
    const index = JSON.parse(await readFile(path.join(outDir, 'client/data/events/index.json'), 'utf8')) as {
      files: unknown[];
    };
    expect(index.files).toEqual([]);
    const board = JSON.parse(await readFile(path.join(outDir, 'client/data/board.json'), 'utf8')) as {
      providers: Record<string, { recent: unknown[] }>;
    };
    expect(Object.values(board.providers).map((provider) => provider.recent)).toEqual([[], [], []]);
  }, 300_000);
});
