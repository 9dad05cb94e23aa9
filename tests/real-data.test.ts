import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../scripts/lib/local-server.ts';
import { commandNames, descendantsOf, isAlive } from './support/processes.ts';
import { copyProject } from '../scripts/lib/project-copy.ts';
import { astroEntry } from '../scripts/lib/tools.ts';
import { scaled } from '../scripts/lib/load-scaled.ts';

/**
 * What a deployment does with the project: a copy whose sample events and marker are replaced by a few real
 * events (one provider folder missing), and then by nothing at all. `npm run validate`, `npm start` and
 * `astro build` run in the copy, with the default paths (content/events, content/dataset.json) and no EVENTS_DIR.
 */

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

/** `days` days before the run, at `time` UTC: a post in the past on any date, in the order written. */
function daysAgo(days: number, time: string): string {
  const day = new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
  return `${day}T${time}:00.000Z`;
}

/** A handful of events as a real deployment would keep them: real https hosts, no provider_c folder at all. */
const REAL_EVENTS = [
  realEvent({
    id: '1856000000000000101',
    provider: 'provider_a',
    kind: 'reset',
    announcedAt: daysAgo(113, '16:20'),
    sourceUrl: 'https://x.com/provider_a/status/1856000000000000101',
    sourceAccount: 'provider_a',
    summary: 'We have reset usage limits for all plans.',
  }),
  realEvent({
    id: '1859000000000000202',
    provider: 'provider_a',
    kind: 'reset',
    announcedAt: daysAgo(85, '09:05'),
    sourceUrl: 'https://x.com/provider_a/status/1859000000000000202',
    sourceAccount: 'provider_a',
    summary: 'Limits are reset again after the outage.',
  }),
  realEvent({
    id: '1861000000000000303',
    provider: 'provider_a',
    kind: 'boost',
    announcedAt: daysAgo(44, '12:00'),
    sourceUrl: 'https://x.com/provider_a/status/1861000000000000303',
    sourceAccount: 'provider_a',
    summary: 'Pro limits doubled this weekend.',
    scope: 'plan:pro',
  }),
  realEvent({
    id: '3m2xyzabc',
    provider: 'provider_b',
    kind: 'reset',
    announcedAt: daysAgo(35, '22:45'),
    sourceUrl: 'https://bsky.app/profile/provider-b.com/post/3m2xyzabc',
    sourceAccount: 'provider-b.com',
    summary: 'Weekly limits were reset for everyone.',
  }),
  realEvent({
    id: '3m3draft',
    provider: 'provider_b',
    kind: 'tease',
    announcedAt: daysAgo(23, '08:00'),
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

/** A build in the copy (beside any other Astro run: scripts/lib/project-copy.ts). */
function buildInCopy(siteUrl: string, outDir: string) {
  const run = spawnSync(process.execPath, [astroEntry(copy), 'build', '--outDir', outDir], {
    cwd: copy,
    env: deploymentEnv(siteUrl),
    encoding: 'utf8',
  });
  if (run.status !== 0)
    throw new Error(`astro build failed in the copy (${run.status}):\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}

/**
 * `npm start` in the copy, as a person runs it in a terminal: PORT set, no SITE_URL, in a process group of its
 * own (a terminal's foreground job). Resolves when its screen is printed, with the address it names.
 */
async function npmStartInCopy(): Promise<{
  child: ChildProcess;
  port: number;
  address: string;
  screen: string;
  exited: Promise<void>;
}> {
  const port = await freePort();
  const env = deploymentEnv('');
  delete env.SITE_URL;
  const child = spawn(process.execPath, ['scripts/start.ts'], {
    cwd: copy,
    env: { ...env, PORT: String(port) },
    detached: true,
  });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const screen = await new Promise<string>((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      // The screen's last line.
      if (/the whole log is in \S+\.\n/.test(output)) resolve(output);
    });
  });
  const address = /is served at (http:\/\/\S+?)[.;]? /.exec(screen)?.[1] ?? '';
  return { child, port, address, screen, exited };
}

beforeAll(async () => {
  copy = await copyProject('departures-board-deployment-');
  // "Replacing the sample data" (docs/content.md): delete the sample events and the marker, add real events. Whatever the
  // checkout holds (the sample set, real events without a marker, nothing), the copy holds these alone.
  await rm(path.join(copy, 'content/events'), { recursive: true, force: true });
  await rm(path.join(copy, 'content/dataset.json'), { force: true });
  for (const event of REAL_EVENTS) {
    await mkdir(path.join(copy, 'content/events', event.provider), { recursive: true });
    await writeFile(
      path.join(copy, 'content/events', event.provider, `${event.id}.json`),
      `${JSON.stringify(event, null, 2)}\n`,
    );
  }
});

afterAll(async () => {
  await rm(copy, { recursive: true, force: true });
});

describe('a copy of the project with real events instead of the sample set', () => {
  it(
    'validates them; npm start builds and serves them, without a word or header about sample data',
    async () => {
      const validation = validateInCopy();
      expect(validation.stderr).toBe('');
      expect(validation.status).toBe(0);
      expect(validation.stdout.trim()).toBe('content/events: 5 valid event files (4 published, 1 drafts).');

      const start = await npmStartInCopy();
      try {
        expect(start.address).toBe(`http://localhost:${start.port}`);
        // A screen, not a log: a line per phase, the address, each setting of the local server, no stack trace.
        const lines = start.screen.trimEnd().split('\n');
        expect(lines.length).toBeLessThanOrEqual(25);
        expect(lines.filter((line) => /^\s+at /.test(line))).toEqual([]);
        expect(start.screen).not.toMatch(/ENOTFOUND|records\/\d/);
        expect(lines).toEqual(
          expect.arrayContaining([
            `  port ${start.port} on localhost: free`,
            expect.stringMatching(
              /^ {2}building the site for http:\/\/localhost:\d+… \d+ pages and data files, [\d.]+ s$/,
            ),
            expect.stringMatching(
              /^ {2}migrating the local D1 \(\.wrangler\/state\)… all \d+ migrations applied, [\d.]+ s$/,
            ),
            expect.stringMatching(/^ {2}starting workerd… answering, [\d.]+ s$/),
            `Departures Board is served at ${start.address}. Ctrl+C stops it.`,
            `  SITE_URL: absent: the pages' links point to this server (${start.address})`,
          ]),
        );
        for (const setting of [
          'VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT: ',
          'REVIEW_WEBHOOK_URL: ',
          'REVIEW_SIGNING_KEY: ',
          'OPS_WEBHOOK_URL: ',
          'TELEGRAM_BOT_TOKEN, TELEGRAM_WEBHOOK_SECRET: ',
          'GITHUB_TOKEN: ',
        ])
          expect(lines.filter((line) => line.startsWith(`  ${setting}`)).length, setting).toBe(1);
        // Asked the moment the address is printed: it must already answer.
        expect((await fetch(`${start.address}/`)).status).toBe(200);
        expect(await readFile(path.join(copy, 'dist/client/_headers'), 'utf8')).not.toMatch(/X-Sample-Data/i);
        const timeline = await fetch(`${start.address}/api/timeline?limit=50`);
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
          const response = await fetch(`${start.address}${page}`);
          expect(response.status, page).toBe(page === '/no-such-page' ? 404 : 200);
          expect(response.headers.get('X-Sample-Data'), page).toBeNull();
          expect(await response.text(), page).not.toMatch(NO_SAMPLE_WORDS);
        }

        // Closing the terminal (SIGHUP to the foreground job's process group) leaves no process behind.
        const processes = await descendantsOf(start.child.pid!);
        expect(await commandNames(processes)).toContain('workerd');
        process.kill(-start.child.pid!, 'SIGHUP');
        await start.exited;
        // Give the server's processes time to go (a hang guard: the check below is what counts).
        for (let attempt = 0; attempt < 100 && processes.some(isAlive); attempt += 1)
          await new Promise((resolve) => setTimeout(resolve, 100));
        expect(processes.filter(isAlive)).toEqual([]);
      } finally {
        for (const pid of [start.child.pid!, ...(await descendantsOf(start.child.pid!))])
          if (isAlive(pid)) process.kill(pid, 'SIGKILL');
        await rm(path.join(tmpdir(), `departures-board-start-${start.port}.log`), { force: true });
      }
    },
    scaled(300_000),
  );

  it(
    'validates and builds an empty tree: an empty folder, and no folder at all as a fresh clone has',
    async () => {
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
    },
    scaled(300_000),
  );
});
