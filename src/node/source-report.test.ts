import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, serveBuild, stopServer, waitUntilServing } from '../../scripts/lib/local-server.ts';
import { SOURCE_HEALTH_BINDING, SOURCE_REPORT_KEY, type SourceCheck } from '../core/sources.ts';
import { generateVapidSecrets } from './local-vapid.ts';
import {
  kvPutArguments,
  PROJECT_WRANGLER_CONFIG,
  sourceReportTargetFromEnvironment,
  writeSourceReport,
} from './source-report.ts';
import { scaled } from '../../scripts/lib/load-scaled.ts';

const results: SourceCheck[] = [
  {
    provider: 'provider_a',
    name: 'provider_a_eng',
    url: 'https://feeds.example/a.xml',
    checkedAt: '2026-11-23T10:00:01.000Z',
    ok: true,
    error: null,
    itemsSeen: 12,
  },
  {
    provider: 'provider_b',
    name: 'provider_b',
    url: 'https://feeds.example/b.xml',
    checkedAt: '2026-11-23T10:00:02.000Z',
    ok: false,
    error: 'HTTP 503',
    itemsSeen: 0,
  },
];

/** The project's kv_namespaces entry, read with a JSONC-aware parser (the file has comments). */
async function projectKvNamespaces(): Promise<{ binding: string; id: string }[]> {
  const parsed = ts.parseConfigFileTextToJson(PROJECT_WRANGLER_CONFIG, await readFile(PROJECT_WRANGLER_CONFIG, 'utf8'));
  if (parsed.error) throw new Error(String(parsed.error.messageText));
  return (parsed.config as { kv_namespaces: { binding: string; id: string }[] }).kv_namespaces;
}

describe('the source report writer', () => {
  it('declares the binding the site reads in wrangler.jsonc', async () => {
    expect((await projectKvNamespaces()).map((namespace) => namespace.binding)).toContain(SOURCE_HEALTH_BINDING);
  });

  it('reads its target from SOURCE_REPORT_TARGET, local by default, and refuses anything else', () => {
    expect(sourceReportTargetFromEnvironment(undefined)).toBe('local');
    expect(sourceReportTargetFromEnvironment('remote')).toBe('remote');
    expect(sourceReportTargetFromEnvironment('off')).toBe('off');
    expect(() => sourceReportTargetFromEnvironment('cloud')).toThrow(/SOURCE_REPORT_TARGET/);
  });

  it('writes remotely with the same command, --remote instead of the local folder', () => {
    const report = { checkedAt: '2026-11-23T10:00:03.000Z', sources: results };
    const remote = kvPutArguments(report, 'remote', '/state', '/config.jsonc');
    expect(remote.slice(1, 6)).toEqual(['kv', 'key', 'put', SOURCE_REPORT_KEY, JSON.stringify({ version: 1, report })]);
    expect(remote).toContain('--remote');
    expect(remote).not.toContain('--local');
    expect(remote).not.toContain('--persist-to');
    expect(kvPutArguments(report, 'local', '/state', '/config.jsonc').slice(-3)).toEqual([
      '--local',
      '--persist-to',
      '/state',
    ]);
  });

  it('writes nothing with the off target and still returns the report', async () => {
    const report = await writeSourceReport(results, {
      target: 'off',
      finishedAt: new Date('2026-11-23T10:00:03.000Z'),
    });
    expect(report).toEqual({ checkedAt: '2026-11-23T10:00:03.000Z', sources: results });
  });
});

/**
 * The real thing: the writer puts a report into a local state folder, and a worker with the project's
 * SOURCE_HEALTH binding, served by workerd from that same folder, reads it back through the binding and
 * answers with the core's /api/sources response.
 */
describe('a report written locally is readable through the binding', () => {
  let root: string;
  let state: string;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'source-report-test-'));
    state = path.join(root, 'state');
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('round-trips through wrangler kv key put and env.SOURCE_HEALTH', { timeout: scaled(60_000) }, async () => {
    // The run's end and the request's clock seconds after the checks: a source that failed 3 s before is not yet
    // `failing` (over 15 minutes), and the report is current, whatever the machine's clock says.
    const finishedAt = new Date('2026-11-23T10:00:04.000Z');
    const written = await writeSourceReport(results, { target: 'local', persistTo: state, finishedAt });

    const worker = path.join(root, 'worker.ts');
    const core = path.resolve(import.meta.dirname, '../core/sources.ts');
    await writeFile(
      worker,
      [
        `import { SOURCE_HEALTH_BINDING, SOURCE_REPORT_KEY, sourcesResponse } from ${JSON.stringify(core)};`,
        'export default {',
        // The test's clock, handed over: workerd reads the machine's, which a run at a moved clock does not move.
        '  async fetch(request: Request, env: Record<string, KVNamespace>): Promise<Response> {',
        "    const now = new Date(Number(new URL(request.url).searchParams.get('now')));",
        '    return Response.json(sourcesResponse(await env[SOURCE_HEALTH_BINDING]!.get(SOURCE_REPORT_KEY), now));',
        '  },',
        '};',
      ].join('\n'),
    );
    const config = path.join(root, 'wrangler.json');
    await writeFile(
      config,
      JSON.stringify({
        name: 'source-report-check',
        main: worker,
        compatibility_date: '2026-10-01',
        kv_namespaces: await projectKvNamespaces(),
      }),
    );

    const port = await freePort();
    // A pair of its own: without one, serveBuild takes npm start's pair and makes it in the checkout's .wrangler.
    const vapid = generateVapidSecrets();
    const server = await serveBuild({ port, persistTo: state, workerConfig: config, vapid });
    let log = '';
    server.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    try {
      await waitUntilServing(`http://127.0.0.1:${port}/`, server, 45_000).catch((error: Error) => {
        throw new Error(`${error.message}\n${log}`);
      });
      const askedAt = Date.parse('2026-11-23T10:00:05.000Z');
      const answer = (await (await fetch(`http://127.0.0.1:${port}/?now=${askedAt}`)).json()) as unknown;
      expect(answer).toEqual({
        response: { checkedAt: finishedAt.toISOString(), sources: results, state: 'current' },
        problem: null,
      });
      expect(written.checkedAt).toBe(finishedAt.toISOString());
    } finally {
      stopServer(server);
    }
  });
});
