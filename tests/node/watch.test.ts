import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkEventTree } from '../../src/node/check-event-tree.ts';
import { copyServedEvents } from '../support/served-events.ts';
import { runWatch } from '../../src/node/watch/run-watch.ts';
import { tempFolder } from '../support/temp-folders.ts';

/** The watcher against fixture feeds served on loopback, with a copy of content/ (never the real one). */

const FIXTURES = 'tests/fixtures/watch';
// The watcher's deadline per feed. The loopback fixtures answer in milliseconds; the margin is for a busy
// machine, and the one feed that never answers costs this much once.
const FEED_TIMEOUT_MS = 5_000;
let server: Server;
let undatedFeedGivesDate = false;
const LONG_BODY =
  `Usage limits have been reset for everyone. ${'Thank you for your patience while we worked on capacity. '.repeat(8)}`.trim();
const undatedFeed = (
  withDate: boolean,
) => `<?xml version="1.0"?><rss version="2.0"><channel><title>B</title><link>https://social.provider-b.example/@providerb</link><description>d</description>
<item><title>Limits reset</title><link>https://social.provider-b.example/@providerb/777</link><description>${LONG_BODY}</description>${withDate ? '<pubDate>Fri, 20 Nov 2026 08:00:00 GMT</pubDate>' : ''}</item>
</channel></rss>`;
let origin: string;

beforeAll(async () => {
  const fixture = (name: string) => async () => readFile(`${FIXTURES}/${name}`);
  const routes: Record<string, (() => Promise<Buffer | string>) | 500 | 'never'> = {
    '/provider-a.rss': fixture('provider-a.rss'),
    '/provider-c.atom': fixture('provider-c.atom'),
    '/provider-c.json': fixture('provider-c.json'),
    '/broken': 500,
    '/malformed': async () => '<rss><channel><item><title>unclosed',
    '/huge': async () =>
      `<rss version="2.0"><channel>${'<item><title>x</title></item>'.repeat(40_000)}</channel></rss>`,
    '/slow': 'never',
    // A relevant post whose date the feed leaves out until `undatedFeedGivesDate` is set (a bridge fixed).
    '/undated': async () => undatedFeed(undatedFeedGivesDate),
  };
  server = createServer(async (request, response) => {
    const route = routes[request.url ?? '/'];
    if (route === 'never') return;
    if (route === undefined || route === 500) {
      response.writeHead(route ?? 404).end('oops');
      return;
    }
    response.end(await route());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

/**
 * The watcher's clock: the day after the fixture feeds' newest post (20 Nov 2026). The event tree beside it is made
 * for the same clock, so the workspace is one moment whatever the date of the run.
 */
const WATCH_NOW = new Date('2026-11-21T12:00:00.000Z');

async function workspace(feeds: Record<string, { account: string; feed: string }[]>) {
  const root = tempFolder('watch');
  await copyServedEvents(path.join(root, 'content/events'), WATCH_NOW);
  await writeFile(path.join(root, 'sources.json'), JSON.stringify(feeds));
  await writeFile(path.join(root, 'state.json'), '{"seen": {}}');
  return {
    root,
    options: {
      eventsRoot: path.join(root, 'content/events'),
      sourcesFile: path.join(root, 'sources.json'),
      rulesFile: 'content/watch/classification.json',
      stateFile: path.join(root, 'state.json'),
      timeoutMs: FEED_TIMEOUT_MS,
      maxBytes: 256 * 1024,
      now: WATCH_NOW,
    },
  };
}

describe('npm run watch', () => {
  it('turns new relevant posts into drafts once, and reports failing sources without losing the rest', async () => {
    const { options } = await workspace({
      provider_a: [
        { account: 'provider_a_eng', feed: `${origin}/provider-a.rss` },
        { account: 'provider_a_eng', feed: `${origin}/broken` },
        { account: 'provider_a_eng', feed: `${origin}/slow` },
      ],
      provider_b: [
        { account: 'providerb', feed: `${origin}/malformed` },
        { account: 'providerb', feed: `${origin}/huge` },
      ],
      provider_c: [
        { account: 'providerc_status', feed: `${origin}/provider-c.atom` },
        { account: 'providerc_status', feed: `${origin}/provider-c.json` },
      ],
    });
    const before = await checkEventTree(options.eventsRoot, WATCH_NOW);

    const report = await runWatch(options);
    expect(report.drafts.sort()).toEqual([
      'provider_a/1900000000000000001.json',
      'provider_a/1900000000000000003.json',
      'provider_c/2026-11-19-limits.json',
      'provider_c/capacity-coming.json',
    ]);
    expect(report.failures).toEqual([
      `provider_a ${origin}/broken answered HTTP 500`,
      `provider_a ${origin}/slow timed out after ${FEED_TIMEOUT_MS} ms`,
      expect.stringMatching(new RegExp(`^provider_b ${origin}/malformed is not a readable feed`)),
      expect.stringMatching(new RegExp(`^provider_b ${origin}/huge is too large`)),
    ]);

    const after = await checkEventTree(options.eventsRoot, WATCH_NOW);
    expect(after.problems).toEqual([]);
    const added = after.events.filter((event) => !before.events.some((old) => old.id === event.id));
    expect(added.map((event) => [event.id, event.kind, event.verified, event.announcedAt]).sort()).toEqual([
      ['1900000000000000001', 'reset', false, '2026-11-19T16:05:00.000Z'],
      ['1900000000000000003', 'promo', false, '2026-11-17T09:00:00.000Z'],
      ['2026-11-19-limits', 'reset', false, '2026-11-19T04:00:00.000Z'],
      ['capacity-coming', 'tease', false, '2026-11-20T08:00:00.000Z'],
    ]);
    // The summary is the post's own text, not its title glued to its body.
    expect(added.find((event) => event.id === '1900000000000000001')?.summary).toBe(
      "We've reset weekly usage limits for everyone & every plan.",
    );
    // Nothing already recorded was touched.
    expect(after.events.filter((event) => before.events.some((old) => old.id === event.id))).toEqual(before.events);

    const again = await runWatch(options);
    expect(again.drafts).toEqual([]);
  });

  it('exits 1 when a source failed and 0 when all were read', async () => {
    const failing = await workspace({ provider_a: [{ account: 'provider_a_eng', feed: `${origin}/broken` }] });
    // Asynchronously: the fixture server lives in this process and must keep answering.
    const run = (options: typeof failing.options) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        const args = [
          'scripts/watch.ts',
          '--sources',
          options.sourcesFile,
          '--state',
          options.stateFile,
          '--timeout-ms',
          String(FEED_TIMEOUT_MS),
        ];
        const child = execFile(
          process.execPath,
          args,
          { env: { ...process.env, EVENTS_DIR: options.eventsRoot, SOURCE_REPORT_TARGET: 'off' } },
          (_, stdout, stderr) => resolve({ status: child.exitCode, stdout, stderr }),
        );
      });
    const failed = await run(failing.options);
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain('answered HTTP 500');
    const fine = await workspace({ provider_c: [{ account: 'providerc_status', feed: `${origin}/provider-c.atom` }] });
    const succeeded = await run(fine.options);
    expect(succeeded.status).toBe(0);
    expect(succeeded.stdout).toContain('draft: provider_c/capacity-coming.json');
  });
});

/** The local state folder the workspace's source report is written to (beside its event tree). */
const reportState = (options: { eventsRoot: string }) => path.join(options.eventsRoot, '../../state');

const runScript = (options: { sourcesFile: string; stateFile: string; eventsRoot: string }) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const args = [
      'scripts/watch.ts',
      '--sources',
      options.sourcesFile,
      '--state',
      options.stateFile,
      '--timeout-ms',
      String(FEED_TIMEOUT_MS),
    ];
    const child = execFile(
      process.execPath,
      args,
      // Its source report goes to a local KV of the workspace's own, never the one `npm start` serves.
      { env: { ...process.env, EVENTS_DIR: options.eventsRoot, SOURCE_REPORT_PERSIST_TO: reportState(options) } },
      (_, stdout, stderr) => resolve({ status: child.exitCode, stdout, stderr }),
    );
  });

describe('npm run watch never invents a time and never forgets a fixable post', () => {
  it('reports a post without a date instead of stamping it with the fetch time, and drafts it once the feed gives one', async () => {
    undatedFeedGivesDate = false;
    const { options } = await workspace({ provider_b: [{ account: 'providerb', feed: `${origin}/undated` }] });
    const first = await runWatch(options);
    expect(first.drafts).toEqual([]);
    expect(first.skipped).toEqual([
      expect.stringMatching(
        /^provider_b https:\/\/social\.provider-b\.example\/@providerb\/777: the feed gives no publication date/,
      ),
    ]);
    const state = JSON.parse(await readFile(options.stateFile, 'utf8')) as { seen: Record<string, string[]> };
    expect(state.seen['provider_b']).toEqual([]);

    undatedFeedGivesDate = true;
    const second = await runWatch(options);
    expect(second.drafts).toEqual(['provider_b/777.json']);
    const draft = JSON.parse(await readFile(path.join(options.eventsRoot, 'provider_b/777.json'), 'utf8')) as {
      announcedAt: string;
      summary: string;
    };
    expect(draft.announcedAt).toBe('2026-11-20T08:00:00.000Z');
    // The body alone, cut to 280 characters with an ellipsis (counted independently here).
    expect([...draft.summary].length).toBe(280);
    expect(draft.summary).toBe(`${LONG_BODY.slice(0, 279).trimEnd()}…`);
    expect((await runWatch(options)).drafts).toEqual([]);
  });
});

describe('npm run watch config files', () => {
  async function withSources(text: string) {
    const { options } = await workspace({});
    await writeFile(options.sourcesFile, text);
    return options;
  }

  it.each([
    [
      'a misspelt provider key',
      JSON.stringify({ provider_d: [{ account: 'a', feed: 'https://feeds.provider-a.example/a.rss' }] }),
      /sources\.json: unknown key "provider_d" \(the keys are provider_a, provider_b, provider_c\)/,
    ],
    [
      'a non-https source',
      JSON.stringify({ provider_a: [{ account: 'a', feed: 'http://feeds.provider-a.example/a.rss' }] }),
      /sources\.json: provider_a\[0\]\.feed must be an https URL/,
    ],
    [
      'a misspelt field',
      JSON.stringify({ provider_a: [{ account: 'a', fed: 'https://feeds.provider-a.example/a.rss' }] }),
      /sources\.json: (provider_a\[0\]\.feed|unknown key "provider_a\[0\]\.fed")/,
    ],
    ['malformed JSON', '{"provider_a": [', /sources\.json: is not valid JSON/],
  ])('%s is an error naming the file and the key, in one line each and no stack trace', async (_, text, message) => {
    const options = await withSources(text);
    await expect(runWatch(options)).rejects.toThrow(message);
    const result = await runScript(options);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(options.sourcesFile);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  it('with only the sample sources (hosts under .example) there is nothing to watch: exit 0, one clear line, state untouched', async () => {
    const options = await withSources(await readFile('content/watch/sources.json', 'utf8'));
    const stateBefore = await readFile(options.stateFile, 'utf8');
    const result = await runScript(options);
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toMatch(
      /^Nothing to watch: .*sources\.json lists no real source \(only the 4 sample feed\(s\) under \.example/,
    );
    expect(result.stderr).toBe('');
    expect(await readFile(options.stateFile, 'utf8')).toBe(stateBefore);
  });

  it('a real source that fails still fails the run, whatever samples sit beside it', async () => {
    const options = await withSources(
      JSON.stringify({
        provider_a: [
          { account: 'a', feed: 'https://posts.provider-a.example/a.rss' },
          { account: 'a', feed: `${origin}/broken` },
        ],
      }),
    );
    const result = await runScript(options);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('answered HTTP 500');
  });
});
