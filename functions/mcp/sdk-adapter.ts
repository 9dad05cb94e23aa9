import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import * as sdk from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { MCP_TOOLS } from '../../src/core/mcp/catalogue.ts';

/**
 * Every place the board answers otherwise than @modelcontextprotocol/sdk, each with the decision that needs it.
 * sdk-adapter.test.ts checks against the installed SDK that each is still needed and still takes effect; all
 * else is the SDK's own, used as its stateless example does (server.ts, handler.ts).
 */
export const ADAPTED_SDK_VERSION = '1.32.2';

export type Refusal = { ok: false; id: string | number | null; error: { code: number; message: string } };
const refuse = (code: number, message: string, id: Refusal['id'] = null): Refusal => ({
  ok: false,
  id,
  error: { code, message },
});

/**
 * 1. Spec 4.7: SSE when Accept lists `text/event-stream`, else the same message as JSON. The transport refuses
 * (406) an Accept without both, so it gets a copy that lists both (without the body, which the handler reads).
 */
export function negotiate(request: Request): { request: Request; json: boolean } {
  const headers = new Headers(request.headers);
  headers.set('Accept', 'application/json, text/event-stream');
  const json = !(request.headers.get('Accept') ?? '').includes('text/event-stream');
  return { request: new Request(request.url, { method: request.method, headers }), json };
}

/** decisions.md: each message of a batch counts against the rate limit, and a batch holds at most this many. */
const MAX_BATCH_MESSAGES = 20;

function refusalOf(message: unknown): Refusal | undefined {
  if (sdk.JSONRPCMessageSchema.safeParse(message).success) return undefined;
  const { id, jsonrpc, method, params } = Object(message) as Record<string, unknown>;
  const readableId = typeof id === 'string' || Number.isSafeInteger(id) ? (id as string | number) : null;
  if (jsonrpc === '2.0' && typeof method === 'string' && Array.isArray(params))
    return refuse(-32602, `Invalid params: ${method} takes its params by name (an object)`, readableId);
  const shape = '{"jsonrpc": "2.0", "id", "method", "params"}';
  return refuse(-32600, `Invalid Request: not a JSON-RPC 2.0 request, notification or response (${shape})`, readableId);
}

/**
 * 2. JSON-RPC 2.0 §5.1, MCP 2025-06-18 (no batches) and decisions.md (at most 20), where the transport answers
 * every bad body -32700, an empty batch 202 and runs batches of up to 100 under any revision: not JSON -32700;
 * not a message -32600 with its id if readable; params by position -32602; an empty batch, a batch under
 * 2025-06-18 or later, or a batch too long -32600. The handler counts the messages before any runs.
 */
export function screenBody(text: string, version: string | null): { ok: true; body: unknown } | Refusal {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return refuse(-32700, 'Parse error: the body is not JSON');
  }
  if (Array.isArray(body) && body.length === 0) return refuse(-32600, 'Invalid Request: an empty batch');
  if (Array.isArray(body) && version !== null && version >= '2025-06-18')
    return refuse(
      -32600,
      `Invalid Request: protocol revision ${version} has no batches (since 2025-06-18); send one message per request`,
    );
  if (Array.isArray(body) && body.length > MAX_BATCH_MESSAGES)
    return refuse(
      -32600,
      `Invalid Request: a batch of ${body.length} messages; at most ${MAX_BATCH_MESSAGES} per request`,
    );
  return (Array.isArray(body) ? body : [body]).map(refusalOf).find(Boolean) ?? { ok: true, body };
}

/**
 * 4. A tool's schemas as tools/list shows them (docs/mcp.md): the result's named schemas once under `$defs`,
 * `type: object` at the top; no `$schema` (MCP's default is 2020-12), examples, `pattern` beside a `format` or
 * ±(2^53 − 1) bounds of `int()`. Arguments name no schema (catalogue.ts), so they carry no `$ref`.
 */
type Json = Record<string, unknown>;
const withoutNoise = ({ jsonSchema: node }: { jsonSchema: Json }) => {
  for (const key of ['examples', 'example', ...(typeof node.format === 'string' ? ['pattern'] : [])]) delete node[key];
  for (const key of ['minimum', 'maximum'])
    if (Math.abs(node[key] as number) === Number.MAX_SAFE_INTEGER) delete node[key];
};
function toolJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const generated = z.toJSONSchema(schema, { io, unrepresentable: 'any', override: withoutNoise });
  const { $schema: _, $ref, $defs = {}, ...rest } = generated as Json & { $defs?: Json };
  if (typeof $ref !== 'string') return Object.keys($defs).length === 0 ? rest : { ...rest, $defs };
  const { [$ref.slice('#/$defs/'.length)]: root, ...others } = $defs;
  return { ...(root as Json), $defs: others };
}
let listedTools: object[] | undefined;
const listTools = () =>
  (listedTools ??= Object.entries(MCP_TOOLS).map(([name, { inputSchema, outputSchema, ...tool }]) => ({
    name,
    ...tool,
    inputSchema: toolJsonSchema(z.object(inputSchema), 'input'),
    outputSchema: toolJsonSchema(outputSchema, 'output'),
  })));

/** 5–7. What MCP 2025-11-25 answers a request the server cannot take. */
const REQUEST_SCHEMAS = new Map(sdk.ClientRequestSchema.options.map((schema) => [schema.shape.method.value, schema]));
function protocolError({ method, params = {} }: sdk.JSONRPCRequest, isResource: (uri: string) => boolean) {
  const parsed = REQUEST_SCHEMAS.get(method as never)?.safeParse({ method, params });
  if (parsed?.success === false) {
    const issues = parsed.error.issues
      .slice(0, 3)
      .map(({ path, message }) => `${path.map(String).join('.') || 'params'}: ${message}`);
    return { code: -32602, message: `Invalid params for ${method}: ${issues.join('; ')}` };
  }
  const { name, uri } = params as { name?: unknown; uri?: unknown };
  if (method === 'tools/call' && !Object.hasOwn(MCP_TOOLS, String(name)))
    return { code: -32602, message: `Unknown tool: ${String(name)} (tools: ${Object.keys(MCP_TOOLS).join(', ')})` };
  if (method === 'resources/read' && !isResource(String(uri)))
    return { code: -32002, message: 'Resource not found', data: { uri } };
  return undefined;
}

/** 8. Messages without the "MCP error -32602: " the SDK's McpError writes (a client's McpError adds its own). */
const plain = (text: string) => text.replace(/^MCP error -?\d+: /, '');
function withoutPrefix(message: sdk.JSONRPCMessage): sdk.JSONRPCMessage {
  if (sdk.isJSONRPCErrorResponse(message))
    return { ...message, error: { ...message.error, message: plain(message.error.message) } };
  if (!sdk.isJSONRPCResultResponse(message) || message.result.isError !== true) return message;
  if (!Array.isArray(message.result.content)) return message;
  const content = (message.result.content as { text?: unknown }[]).map((block) =>
    typeof block.text === 'string' ? { ...block, text: plain(block.text) } : block,
  );
  return { ...message, result: { ...message.result, content } };
}

/** The server on the transport, with overrides 3 to 8 (1 and 2 come before the transport). */
export async function connectAdapted(
  server: McpServer,
  transport: WebStandardStreamableHTTPServerTransport,
  isResource: (uri: string) => boolean,
): Promise<void> {
  // 3. docs/mcp.md (capabilities): the SDK claims `listChanged` for each list it serves; a stateless server has no
  // stream to send that notification on. Capabilities merge field by field, so `undefined` takes the claim back.
  const unclaimed = { listChanged: undefined };
  server.server.registerCapabilities({ tools: unclaimed, resources: unclaimed, prompts: unclaimed });
  // 4. docs/mcp.md (tools/list): the SDK lists draft-07 schemas with `$schema`, `$ref`s, examples, date patterns.
  server.server.setRequestHandler(sdk.ListToolsRequestSchema, () => ({ tools: listTools() }) as never);
  await server.connect(transport);
  // 5–7. MCP 2025-11-25 and docs/mcp.md (errors): the SDK answers params that do not fit the method -32603 with a
  // dump of zod's issues, an unknown tool as a tool result, an unknown resource -32602.
  const dispatch = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const error = sdk.isJSONRPCRequest(message) ? protocolError(message, isResource) : undefined;
    if (error === undefined) dispatch?.(message, extra);
    else void transport.send({ jsonrpc: '2.0', id: (message as sdk.JSONRPCRequest).id, error });
  };
  // 8. docs/mcp.md (errors): no message carries the SDK's prefix.
  const send = transport.send.bind(transport);
  transport.send = (message, options) => send(withoutPrefix(message), options);
}

/**
 * 9. The developers' guide's bundle budget (350 KiB gzip, tests/budgets.test.ts): the SDK's server imports Ajv as
 * its default validator even when given another (53 KiB gzip, over the budget; Workers forbid Ajv's code
 * generation anyway). This Vite plugin (astro.config.mjs) makes the SDK's own Workers-safe one that default.
 */
export const AJV_PROVIDER_IMPORT = '../validation/ajv-provider.js';
const WORKERS_DEFAULT = '\0mcp-sdk-validator-for-workers';
export const sdkValidatorForWorkers = () => ({
  name: 'mcp-sdk-validator-for-workers',
  enforce: 'pre' as const,
  resolveId: (id: string, importer?: string) =>
    id === AJV_PROVIDER_IMPORT && importer?.includes('@modelcontextprotocol/sdk') ? WORKERS_DEFAULT : null,
  load: (id: string) =>
    id === WORKERS_DEFAULT
      ? `export { CfWorkerJsonSchemaValidator as AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';`
      : null,
});
