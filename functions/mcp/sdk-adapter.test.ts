import { readFileSync } from 'node:fs';
import path from 'node:path';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { describe, expect, it } from 'vitest';
import { fixtureFiles } from '../../scripts/lib/built-files.ts';
import { edgeApp } from '../../scripts/lib/edge-app.ts';
import { makeEvent, NOW } from '../../src/core/test-events.ts';
import { createContext } from '../../src/server/context.ts';
import { ADAPTED_SDK_VERSION, AJV_PROVIDER_IMPORT, sdkValidatorForWorkers } from './sdk-adapter.ts';
import { createBoardMcpServer } from './server.ts';

/**
 * The adapter's overrides (sdk-adapter.ts), pinned to the installed SDK: for each, the SDK alone (the board's own
 * server on the SDK's transport, nothing adapted) still answers otherwise, so the override is still needed; and the
 * edge, adapter included, answers as decided, so the override still takes effect. An SDK release that changes
 * either fails here, naming the override to look at again.
 */

const SDK_DIR = path.resolve(import.meta.dirname, '../../node_modules/@modelcontextprotocol/sdk');
const installed = (JSON.parse(readFileSync(path.join(SDK_DIR, 'package.json'), 'utf8')) as { version: string }).version;
const app = edgeApp(fixtureFiles([makeEvent({ provider: 'provider_a', kind: 'reset' })], NOW));
const ORIGIN = 'http://localhost:4321';

interface Answer {
  status: number;
  type: string | null;
  // biome-ignore lint/suspicious/noExplicitAny: a JSON-RPC body as it came, read field by field below.
  json: any;
}
const body = (message: unknown) => (typeof message === 'string' ? message : JSON.stringify(message));
const read = async (response: Response): Promise<Answer> => {
  const text = await response.text();
  const type = response.headers.get('content-type');
  return { status: response.status, type, json: type?.startsWith('application/json') ? JSON.parse(text) : text };
};

/** The board's server on a bare transport, as the SDK's stateless example connects them. */
async function sdkAlone(message: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const request = new Request(`${ORIGIN}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body: body(message),
  });
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
  await createBoardMcpServer(createContext(request, app.env, NOW)).connect(transport);
  return read(await transport.handleRequest(request));
}

/** The edge's answer: the handler, the adapter and the same server. */
const adapted = async (message: unknown, headers: Record<string, string> = {}): Promise<Answer> =>
  read(
    (await app.request(
      '/mcp',
      { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: body(message) },
      NOW,
    ))!,
  );

const call = (method: string, params?: object, id = 1) => ({ jsonrpc: '2.0', id, method, ...(params && { params }) });
const pings = (count: number) => Array.from({ length: count }, (_, index) => call('ping', undefined, index + 1));

describe(`the SDK adapter against the installed @modelcontextprotocol/sdk ${installed}`, () => {
  it('is the SDK version whose behaviour the overrides were checked against (check each below when it changes)', () => {
    expect(installed).toBe(ADAPTED_SDK_VERSION);
  });

  it('1. answers plain JSON to a client that does not accept SSE (the transport alone: 406)', async () => {
    const accept = { Accept: 'application/json' };
    expect((await sdkAlone(call('ping'), accept)).status).toBe(406);
    expect(await adapted(call('ping'), accept)).toMatchObject({ status: 200, type: 'application/json' });
    expect((await adapted(call('ping'), { Accept: 'application/json, text/event-stream' })).type).toBe(
      'text/event-stream',
    );
  });

  it.each([
    ['JSON that is no message', { hello: 'world' }, { status: 400, json: { error: { code: -32700 } } }],
    ['an empty batch', [], { status: 202 }],
    ['a batch of 21', pings(21), { status: 200 }],
  ])('2. screens the body: %s is 400, -32600 (the transport alone answers otherwise)', async (_, message, alone) => {
    expect(await sdkAlone(message)).toMatchObject(alone);
    expect(await adapted(message)).toMatchObject({ status: 400, json: { error: { code: -32600 } } });
  });

  it('3. answers params that do not fit the method -32602 in one line (the SDK alone: -32603)', async () => {
    expect((await sdkAlone(call('tools/call', {}))).json.error.code).toBe(-32603);
    const { error } = (await adapted(call('tools/call', {}))).json;
    expect(error).toMatchObject({ code: -32602, message: expect.stringMatching(/^Invalid params for tools\/call: /) });
    expect(error.message).not.toMatch(/\n/);
  });

  it('3. answers an unknown tool with the protocol error -32602 (the SDK alone: a tool result)', async () => {
    const unknown = call('tools/call', { name: 'delete_everything', arguments: {} });
    expect((await sdkAlone(unknown)).json.result.isError).toBe(true);
    expect((await adapted(unknown)).json.error).toMatchObject({ code: -32602, message: /^Unknown tool/ });
  });

  it('4. gives the worker the SDK’s Workers-safe validator as its default (the SDK’s server imports Ajv)', () => {
    const server = path.join(SDK_DIR, 'dist/esm/server/index.js');
    const source = readFileSync(server, 'utf8');
    expect(source).toContain(`import { AjvJsonSchemaValidator } from '${AJV_PROVIDER_IMPORT}';`);
    expect(source).toContain('options?.jsonSchemaValidator ?? new AjvJsonSchemaValidator()');
    const plugin = sdkValidatorForWorkers();
    const resolved = plugin.resolveId(AJV_PROVIDER_IMPORT, server);
    expect(resolved).not.toBeNull();
    expect(plugin.resolveId(AJV_PROVIDER_IMPORT, path.resolve('src/some-module.ts'))).toBeNull();
    expect(plugin.load(resolved!)).toMatch(
      /CfWorkerJsonSchemaValidator as AjvJsonSchemaValidator.*'@modelcontextprotocol\/sdk\/validation\/cfworker'/,
    );
  });
});
