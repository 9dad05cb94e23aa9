import { execFile } from 'node:child_process';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startServer, type RunningServer } from '../scripts/lib/local-server.ts';
import { writeSourceReport } from '../src/node/source-report.ts';
import { loadContract } from './support/openapi-contract.ts';
import { scaled } from '../scripts/lib/load-scaled.ts';
import { tempFolder } from './support/temp-folders.ts';

/**
 * Source health end to end: `npm run watch` reads two fixture feeds on loopback (one answers, one fails) and
 * writes its report into the local KV of a served build (workerd, the real KV binding); `/api/sources` and
 * the board then show both sources. A report older than 5 minutes is `delayed`.
 */

const FEED = 'tests/fixtures/watch/provider-a.rss';
let feeds: Server;
let feedOrigin: string;
let persistTo: string;
let site: RunningServer | undefined;
let workspace: string;

interface SourcesBody {
  checkedAt: string | null;
  state: string;
  sources: { provider: string; name: string; url: string; ok: boolean; error: string | null; itemsSeen: number }[];
}

function runWatch(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const args = ['scripts/watch.ts', '--sources', path.join(workspace, 'sources.json')];
  args.push('--state', path.join(workspace, 'state.json'), '--timeout-ms', '5000');
  const env = {
    ...process.env,
    EVENTS_DIR: path.join(workspace, 'events'),
    SOURCE_REPORT_TARGET: 'local',
    SOURCE_REPORT_PERSIST_TO: persistTo,
  };
  return new Promise((resolve) => {
    const child = execFile(process.execPath, args, { env }, (_, stdout, stderr) =>
      resolve({ code: child.exitCode, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  feeds = createServer(async (request, response) => {
    if (request.url === '/answering.rss') response.end(await readFile(FEED));
    else response.writeHead(500).end('down for maintenance');
  });
  await new Promise<void>((resolve) => feeds.listen(0, '127.0.0.1', resolve));
  feedOrigin = `http://127.0.0.1:${(feeds.address() as AddressInfo).port}`;
  workspace = tempFolder('source-health');
  persistTo = path.join(workspace, 'state');
  await cp(inject('servedEventsDir'), path.join(workspace, 'events'), { recursive: true });
  await writeFile(
    path.join(workspace, 'sources.json'),
    JSON.stringify({
      provider_a: [
        { account: 'provider_a_eng', feed: `${feedOrigin}/answering.rss` },
        { account: 'provider_a_status', feed: `${feedOrigin}/failing.rss` },
      ],
    }),
  );
  await writeFile(path.join(workspace, 'state.json'), '{"seen": {}}');
});

afterAll(async () => {
  await site?.stop();
  feeds.closeAllConnections();
  feeds.close();
});

describe('source health, from npm run watch to the served site', () => {
  it('shows both sources as current after a run, the failing one with its reason', async () => {
    const before = Date.now();
    const watch = await runWatch();
    expect(watch.code, watch.stderr).toBe(1); // a source failed
    expect(watch.stderr).toContain('answered HTTP 500');
    expect(watch.stderr).not.toContain('source report was not written');

    site = await startServer({ persistTo, workerConfig: path.join(inject('builtDir'), 'server/wrangler.json') });
    const response = await fetch(`${site.baseUrl}/api/sources`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as SourcesBody;
    (await loadContract(site.baseUrl)).expectBodyMatches('/api/sources', 200, body);
    expect(body.state).toBe('current');
    expect(Date.parse(body.checkedAt!)).toBeGreaterThanOrEqual(before - 1000);
    const items = ((await readFile(FEED, 'utf8')).match(/<item>/g) ?? []).length;
    expect(body.sources).toEqual([
      expect.objectContaining({
        provider: 'provider_a',
        name: 'provider_a_eng',
        url: `${feedOrigin}/answering.rss`,
        ok: true,
        error: null,
        itemsSeen: items,
      }),
      expect.objectContaining({
        provider: 'provider_a',
        name: 'provider_a_status',
        url: `${feedOrigin}/failing.rss`,
        ok: false,
        error: 'answered HTTP 500',
        itemsSeen: 0,
      }),
    ]);

    const board = await (await fetch(`${site.baseUrl}/`)).text();
    expect(board).toContain('sources checked');
    expect(board).toContain('1 of 2 answering, 1 failing');
    const zh = await (await fetch(`${site.baseUrl}/zh`)).text();
    expect(zh).toContain('2 个中 1 个有响应，1 个失败');
  });

  it('says delayed once the last report is older than 5 minutes', { timeout: scaled(120_000) }, async () => {
    const finishedAt = new Date(Date.now() - 6 * 60_000);
    await writeSourceReport(
      [
        {
          provider: 'provider_b',
          name: 'providerb',
          url: `${feedOrigin}/answering.rss`,
          checkedAt: finishedAt.toISOString(),
          ok: true,
          error: null,
          itemsSeen: 3,
        },
      ],
      { finishedAt, target: 'local', persistTo },
    );
    const body = (await (await fetch(`${site!.baseUrl}/api/sources`)).json()) as SourcesBody;
    expect(body.state).toBe('delayed');
    expect(body.checkedAt).toBe(finishedAt.toISOString());
    expect(body.sources.map((source) => source.name)).toEqual(['providerb']);
    // The board is rendered once a minute at most (the per-minute page cache): the report shows by the next minute.
    await expect
      .poll(async () => (await fetch(`${site!.baseUrl}/`)).text(), { timeout: scaled(90_000), interval: 2_000 })
      .toMatch(/delayed: last check \d+ min ago/);
  });
});
