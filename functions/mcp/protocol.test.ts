import { describe, expect, it } from 'vitest';
import { fixtureFiles } from '../../scripts/lib/built-files.ts';
import { edgeApp } from '../../scripts/lib/edge-app.ts';
import { buildMcpServerCard } from '../../src/core/mcp/catalogue.ts';
import { makeEvent, NOW, resetsWithGaps } from '../../src/core/test-events.ts';

/**
 * JSON-RPC 2.0 and MCP 2025-11-25 error codes, in-process over the raw HTTP body (the served suite repeats
 * the main ones with the SDK's client). The expected codes are the specifications' numbers, written out.
 */

const EVENTS = [
  ...resetsWithGaps([7, 8, 6], 2).map((event) => ({ ...event, provider: 'provider_a' as const })),
  makeEvent({ provider: 'provider_b', kind: 'boost', announcedAt: '2026-06-10T08:00:00.000Z' }),
  makeEvent({ provider: 'provider_b', kind: 'reset', announcedAt: '2026-06-11T08:00:00.000Z' }),
];
const app = edgeApp(fixtureFiles(EVENTS, NOW));

interface ListedTool {
  name: string;
  inputSchema: { properties: Record<string, { enum?: string[] }> };
}
interface RpcAnswer {
  id?: unknown;
  error?: { code: number; message: string; data?: unknown };
  result?: {
    isError?: boolean;
    content?: { text: string }[];
    tools?: ListedTool[];
    capabilities?: unknown;
    protocolVersion?: string;
    serverInfo?: { name: string };
    structuredContent?: { events: { kind: string; provider: string }[] };
  };
}

async function post(body: string, headers: Record<string, string> = {}) {
  const response = (await app.request(
    '/mcp',
    { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body },
    NOW,
  ))!;
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as RpcAnswer) };
}
const request = (method: string, params?: unknown, id: number | string = 1) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });

describe('JSON-RPC errors', () => {
  it.each([
    ['a body that is not JSON', -32700, '{"jsonrpc": "2.0", "id": 1,', null],
    ['an object that is not a message', -32600, '{"hello":"world"}', null],
    ['a number', -32600, '42', null],
    ['null', -32600, 'null', null],
    ['an empty batch', -32600, '[]', null],
    ['a wrong jsonrpc, with its id', -32600, '{"jsonrpc":"1.0","id":5,"method":"ping"}', 5],
    ['a string as params', -32600, '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":"get_status"}', 6],
    // MCP's requests take their params by name (an object): a message with params by position is none of them.
    ['params by position', -32600, '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":["get_status"]}', 7],
  ])('%s is 400 with %i', async (_, code, body, id) => {
    const answer = await post(body);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ jsonrpc: '2.0', id, error: { code } });
    expect(answer.body!.error!.message).not.toMatch(/MCP error/);
  });

  it.each([
    ['tools/call without a name', request('tools/call', {}), /name/],
    ['tools/call with a numeric name', request('tools/call', { name: 5 }), /name/],
    ['resources/read without a uri', request('resources/read', {}), /uri/],
    ['prompts/get without a name', request('prompts/get', {}), /name/],
  ])('%s is -32602 Invalid params saying what is wrong, not -32603 with a dump', async (_, body, field) => {
    const answer = await post(body);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: 1, error: { code: -32602 } });
    const { message } = answer.body!.error!;
    expect(message).toMatch(field);
    expect(message).not.toMatch(/MCP error|^\[|\n/);
  });

  it('an unknown tool is the protocol error -32602, not a tool result', async () => {
    const answer = await post(request('tools/call', { name: 'delete_everything', arguments: {} }));
    expect(answer.body).toMatchObject({ id: 1, error: { code: -32602 } });
    expect(answer.body!.result).toBeUndefined();
    expect(answer.body!.error!.message).toMatch(/^Unknown tool: delete_everything/);
  });

  // SEP-2164 (final): a resource not found is -32602 (Invalid Params), not the -32002 MCP once suggested.
  it.each([
    ['no resource', 'http://localhost:4321/api/nothing'],
    ['a template naming no provider', 'http://localhost:4321/api/status/provider_z'],
  ])('a URI that names %s is -32602, saying which', async (_, uri) => {
    const answer = await post(request('resources/read', { uri }));
    expect(answer.body).toMatchObject({ id: 1, error: { code: -32602 } });
    expect(answer.body!.error!.message).toContain(uri);
  });

  it('an unknown prompt is -32602', async () => {
    const answer = await post(request('prompts/get', { name: 'nope' }));
    expect(answer.body).toMatchObject({ error: { code: -32602, message: /nope/ } });
  });

  it('a tool’s bad arguments are a tool error naming the argument (MCP 2025-11-25)', async () => {
    const answer = await post(request('tools/call', { name: 'get_timeline', arguments: { limit: 0 } }));
    expect(answer.body!.result!.isError).toBe(true);
    expect(answer.body!.result!.content![0]!.text).toMatch(/limit/);
  });
});

describe('batches', () => {
  const batch = `[${request('ping', undefined, 1)},${request('tools/list', undefined, 2)}]`;

  // 2025-06-18 took batches out of what a client sends; decisions.md limits their length, under any revision.
  it('are answered under any protocol revision, and without the header', async () => {
    for (const version of ['2025-03-26', '2025-06-18', '2025-11-25', undefined]) {
      const headers = version === undefined ? {} : { 'MCP-Protocol-Version': version };
      const answer = await post(batch, headers);
      expect(answer.status).toBe(200);
      expect((answer.body as unknown as { id: number }[]).map((message) => message.id).sort()).toEqual([1, 2]);
    }
  });
});

describe('what the server says of itself', () => {
  it('initialize claims what the server card claims', async () => {
    const answer = await post(
      request('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'test', version: '1' },
      }),
    );
    expect(answer.body!.result!.protocolVersion).toBe('2025-11-25');
    // The SDK's claim: `listChanged` for each list (never sent by a stateless server, whose lists never change).
    const lists = { listChanged: true };
    const claimed = { tools: lists, resources: lists, prompts: lists, completions: {} };
    expect(answer.body!.result!.capabilities).toEqual(claimed);
    expect(buildMcpServerCard('http://localhost:4321').capabilities).toEqual(claimed);
    expect(answer.body!.result!.serverInfo!.name).toBe('departures-board');
  });

  it('tools/list carries each argument’s enum inline and each result as an object (MCP)', async () => {
    const answer = await post(request('tools/list'));
    const tools = answer.body!.result!.tools!;
    for (const tool of tools) expect(JSON.stringify(tool.inputSchema)).not.toMatch(/"\$ref"|"allOf"/);
    for (const tool of tools) expect(tool).toMatchObject({ outputSchema: { type: 'object' } });
    const timeline = tools.find((tool) => tool.name === 'get_timeline')!.inputSchema.properties;
    expect(timeline.provider!.enum).toEqual(['provider_a', 'provider_b', 'provider_c', 'all']);
    expect(timeline.kind!.enum).toEqual(['reset', 'banked', 'boost', 'promo', 'tease']);
    const estimate = tools.find((tool) => tool.name === 'get_next_estimate')!.inputSchema.properties;
    expect(estimate.provider!.enum).toEqual(['provider_a', 'provider_b', 'provider_c']);
  });

  it('get_timeline filters by kind', async () => {
    const answer = await post(request('tools/call', { name: 'get_timeline', arguments: { kind: 'boost' } }));
    const events = answer.body!.result!.structuredContent!.events;
    expect(events.map((event) => [event.provider, event.kind])).toEqual([['provider_b', 'boost']]);
  });

  it('numbers in tool results have at most three decimals, in the text and in structuredContent alike', async () => {
    const later = new Date(NOW.getTime() + 1234567);
    const response = (await app.request(
      '/mcp',
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: request('tools/call', { name: 'get_status' }),
      },
      later,
    ))!;
    const { result } = (await response.json()) as {
      result: { content: { text: string }[]; structuredContent: unknown };
    };
    expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent);
    const numbers: number[] = [];
    JSON.stringify(result.structuredContent, (_, value: unknown) => {
      if (typeof value === 'number') numbers.push(value);
      return value;
    });
    expect(numbers.some((value) => !Number.isInteger(value))).toBe(true);
    for (const value of numbers) expect(String(value)).toMatch(/^-?\d+(\.\d{1,3})?$/);
  });
});
