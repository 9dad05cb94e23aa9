import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { assetsBinding, fixtureFiles, memoryKv, OPEN_RATE_LIMITER } from '../../scripts/lib/built-files.ts';
import { edgeApp } from '../../scripts/lib/edge-app.ts';
import { TRANSLATIONS } from '../../src/core/i18n/index.ts';
import { makeEvent, NOW, resetsWithGaps } from '../../src/core/test-events.ts';
import { createContext } from '../../src/server/context.ts';
import { createBoardMcpServer } from './server.ts';

/**
 * Whether MCP says the data is the fictional sample set (decisions.md, "One honest answer"), with the SDK's own
 * client: with the sample set, `initialize`'s instructions and every tool result say so in the site's own notice (a
 * second text block after the JSON, and `_meta.sampleData`); with real data nothing of it appears. The real case is
 * the worker's own route in-process (scripts/lib/edge-app.ts: no build, so no sample marker); the sample case is the
 * same server made as a build of the sample set makes it (the served build: tests/mcp.test.ts).
 */

const EVENTS = [
  ...resetsWithGaps([7, 8, 6, 9, 7, 8], 2).map((event) => ({ ...event, provider: 'provider_a' as const })),
  makeEvent({ provider: 'provider_b', kind: 'boost', announcedAt: '2026-06-10T08:00:00.000Z' }),
];
const files = fixtureFiles(EVENTS, NOW);
/** The site's notice, the one every page shows while the sample set is served. */
const NOTICE = TRANSLATIONS.en.sampleDataNotice;
const CALLS = [
  ['get_status', {}],
  ['get_timeline', { provider: 'all', limit: 5 }],
  ['get_next_estimate', { provider: 'provider_a' }],
  ['get_forecast', { provider: 'provider_a' }],
] as const;

interface ToolResult {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}
const call = async (client: Client, [name, args]: (typeof CALLS)[number]) =>
  (await client.callTool({ name, arguments: { ...args } })) as ToolResult;

let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

describe('MCP over real data (no sample marker)', () => {
  async function connectOverHttp(): Promise<Client> {
    const app = edgeApp(files);
    const transport = new StreamableHTTPClientTransport(new URL('http://localhost:4321/mcp'), {
      // The worker's route answers every POST; a GET for an event stream is its 405, which the client expects.
      fetch: async (url, init) => (await app.request(String(url), init, NOW)) ?? new Response(null, { status: 404 }),
    });
    const connected = new Client({ name: 'departures-board-tests', version: '1.0.0' });
    await connected.connect(transport);
    return connected;
  }

  it('initialize’s instructions and every tool result say nothing of sample data', async () => {
    client = await connectOverHttp();
    expect(client.getInstructions()).toMatch(/^Departures Board publishes/);
    expect(client.getInstructions()).not.toMatch(/fictional|sample data/i);
    for (const entry of CALLS) {
      const result = await call(client, entry);
      expect(result.content, entry[0]).toEqual([{ type: 'text', text: expect.any(String) }]);
      expect(JSON.parse(result.content[0]!.text), entry[0]).toEqual(result.structuredContent);
      expect(result._meta, entry[0]).toBeUndefined();
      expect(JSON.stringify(result), entry[0]).not.toMatch(/fictional|sampleData|Sample data/);
    }
  });
});

describe('MCP over the sample set', () => {
  async function connectInMemory(): Promise<Client> {
    const request = new Request('http://localhost:4321/mcp', { method: 'POST' });
    const env = { ASSETS: assetsBinding(files), MCP_RATE_LIMITER: OPEN_RATE_LIMITER, SOURCE_HEALTH: memoryKv() };
    const server = createBoardMcpServer(createContext(request, env, NOW), true);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const connected = new Client({ name: 'departures-board-tests', version: '1.0.0' });
    await connected.connect(clientSide);
    return connected;
  }

  it('initialize’s instructions open with the site’s notice, then say what they say with real data', async () => {
    client = await connectInMemory();
    const instructions = client.getInstructions()!;
    expect(instructions.startsWith(`${NOTICE} Departures Board publishes`)).toBe(true);
    expect(instructions).toMatch(/fictional/);
  });

  it('every tool result keeps its JSON as the first block, and adds the notice and _meta.sampleData', async () => {
    client = await connectInMemory();
    for (const entry of CALLS) {
      const result = await call(client, entry);
      expect(result.content, entry[0]).toEqual([
        { type: 'text', text: expect.any(String) },
        { type: 'text', text: NOTICE },
      ]);
      expect(JSON.parse(result.content[0]!.text), entry[0]).toEqual(result.structuredContent);
      expect(result._meta, entry[0]).toEqual({ sampleData: true });
    }
  });
});
