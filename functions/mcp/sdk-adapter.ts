import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  ClientRequestSchema,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type JSONRPCRequest,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { MCP_TOOLS } from '../../src/core/mcp/catalogue.ts';

/**
 * Every place where the board answers otherwise than @modelcontextprotocol/sdk, each with the decision that needs
 * it (numbered as in docs/mcp.md). sdk-adapter.test.ts checks, against the installed SDK, that each is still
 * needed and still takes effect. Everything else is the SDK's own, used as its examples do (server.ts, handler.ts).
 */
export const ADAPTED_SDK_VERSION = '1.32.2';

export type RequestId = string | number;
export type JsonRpcError = { code: number; message: string; data?: unknown };
type Screened =
  | { ok: true; body: JSONRPCMessage | JSONRPCMessage[] }
  | { ok: false; id: RequestId | null; error: JsonRpcError };

/**
 * 1. Spec 4.7: SSE to a client whose Accept lists `text/event-stream`, the same message as plain JSON to any
 * other. The transport answers 406 unless Accept lists both, so it is handed a request that does (without the
 * body, which the handler reads itself).
 */
export function negotiate(request: Request): { request: Request; json: boolean } {
  const headers = new Headers(request.headers);
  headers.set('Accept', 'application/json, text/event-stream');
  const json = !(request.headers.get('Accept') ?? '').includes('text/event-stream');
  return { request: new Request(request.url, { method: request.method, headers }), json };
}

/** decisions.md: a batch counts once per message and holds at most this many. */
export const MAX_BATCH_MESSAGES = 20;
const BATCHES_REMOVED_IN = '2025-06-18';
const refuse = (code: number, message: string, id: RequestId | null = null) =>
  ({ ok: false, id, error: { code, message } }) as const;

function screenMessage(message: unknown): Screened {
  const parsed = JSONRPCMessageSchema.safeParse(message);
  if (parsed.success) return { ok: true, body: parsed.data };
  const fields = (typeof message === 'object' && message !== null ? message : {}) as Record<string, unknown>;
  const id = typeof fields.id === 'string' || Number.isSafeInteger(fields.id) ? (fields.id as RequestId) : null;
  if (fields.jsonrpc === '2.0' && typeof fields.method === 'string' && Array.isArray(fields.params))
    return refuse(-32602, `Invalid params: ${fields.method} takes its params by name (an object)`, id);
  const shape = '{"jsonrpc": "2.0", "id", "method", "params"}';
  return refuse(-32600, `Invalid Request: not a JSON-RPC 2.0 request, notification or response (${shape})`, id);
}

/**
 * 2. The body, before the transport (which answers all of these `-32700`, an empty batch 202, and runs a batch of
 * up to 100 under any revision), as JSON-RPC 2.0 §5.1 and decisions.md want it: not JSON `-32700`; not a message
 * `-32600` with its id when readable; params by position `-32602`; an empty batch, a batch under MCP 2025-06-18 or
 * later (which removed them), or of more than MAX_BATCH_MESSAGES, `-32600`. The handler counts a batch's messages
 * against the rate limit from what this returns, before any runs.
 */
export function screenBody(text: string, protocolVersion: string | null): Screened {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return refuse(-32700, 'Parse error: the body is not JSON');
  }
  if (!Array.isArray(body)) return screenMessage(body);
  if (body.length === 0) return refuse(-32600, 'Invalid Request: an empty batch');
  if (protocolVersion !== null && protocolVersion >= BATCHES_REMOVED_IN)
    return refuse(
      -32600,
      `Invalid Request: protocol revision ${protocolVersion} has no batches (removed in ${BATCHES_REMOVED_IN}); send one message per request`,
    );
  if (body.length > MAX_BATCH_MESSAGES)
    return refuse(
      -32600,
      `Invalid Request: a batch of ${body.length} messages; at most ${MAX_BATCH_MESSAGES} per request`,
    );
  const messages = body.map(screenMessage);
  return messages.find((one) => !one.ok) ?? { ok: true, body: messages.flatMap((one) => (one.ok ? one.body : [])) };
}

/**
 * 4. A tool's schema as tools/list shows it (docs/mcp.md): the result's named schemas once under `$defs`, with
 * `type: object` at the top as MCP asks; no `$schema` (MCP's default is 2020-12), no examples, no `pattern` beside
 * a `format`, no ±(2^53 − 1) bounds of zod's `int()`. Arguments have no named schemas (catalogue.ts): no `$ref`.
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
/** Converted once per isolate, when first asked. */
let listedTools: object[] | undefined;
const listTools = () =>
  (listedTools ??= Object.entries(MCP_TOOLS).map(([name, { inputSchema, outputSchema, ...tool }]) => ({
    name,
    ...tool,
    inputSchema: toolJsonSchema(z.object(inputSchema), 'input'),
    outputSchema: toolJsonSchema(outputSchema, 'output'),
  })));

const REQUEST_SCHEMAS = new Map(ClientRequestSchema.options.map((schema) => [schema.shape.method.value, schema]));

/** 5–7. A request the server cannot take, answered as MCP 2025-11-25 says before the SDK sees it. */
function protocolError(request: JSONRPCRequest, isResource: (uri: string) => boolean): JsonRpcError | undefined {
  const { method, params = {} } = request;
  const parsed = REQUEST_SCHEMAS.get(method as never)?.safeParse({ method, params });
  if (parsed?.success === false) {
    const issues = parsed.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.map(String).join('.') || 'params'}: ${issue.message}`);
    return { code: -32602, message: `Invalid params for ${method}: ${issues.join('; ')}` };
  }
  const { name, uri } = params as { name?: unknown; uri?: unknown };
  if (method === 'tools/call' && !Object.hasOwn(MCP_TOOLS, String(name)))
    return { code: -32602, message: `Unknown tool: ${String(name)} (tools: ${Object.keys(MCP_TOOLS).join(', ')})` };
  if (method === 'resources/read' && !isResource(String(uri)))
    return { code: -32002, message: 'Resource not found', data: { uri } };
  return undefined;
}

/** 8. A message as it leaves: without the "MCP error -32602: " the SDK's McpError writes into every message. */
const SDK_PREFIX = /^MCP error -?\d+: /;
function withoutPrefix(message: JSONRPCMessage): JSONRPCMessage {
  if (isJSONRPCErrorResponse(message))
    return { ...message, error: { ...message.error, message: message.error.message.replace(SDK_PREFIX, '') } };
  const { result } = isJSONRPCResultResponse(message) ? message : { result: undefined };
  if (result?.isError !== true || !Array.isArray(result.content)) return message;
  const content = (result.content as { type: string; text?: unknown }[]).map((block) =>
    typeof block.text === 'string' ? { ...block, text: block.text.replace(SDK_PREFIX, '') } : block,
  );
  return { ...message, result: { ...result, content } } as JSONRPCMessage;
}

/** The server on the transport, with overrides 3–8 (1 and 2 act on the request before the transport sees it). */
export async function connectAdapted(
  server: McpServer,
  transport: WebStandardStreamableHTTPServerTransport,
  isResource: (uri: string) => boolean,
): Promise<void> {
  // 3. docs/mcp.md (capabilities): the SDK claims `listChanged` for every list it serves, but a stateless server
  // holds no stream to send that notification on. Capabilities merge field by field: `undefined` takes it back.
  const unclaimed = { listChanged: undefined };
  server.server.registerCapabilities({ tools: unclaimed, resources: unclaimed, prompts: unclaimed });
  // 4. docs/mcp.md (tools/list): the SDK lists draft-07 with `$schema`, `$ref`s, examples and date patterns.
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listTools() }) as never);
  await server.connect(transport);
  // 5–7. The SDK answers params that do not fit the method -32603 with a dump of zod's issues (MCP: -32602), an
  // unknown tool as a tool result (MCP: the protocol error -32602), an unknown resource -32602 (MCP: -32002).
  const dispatch = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const error = isJSONRPCRequest(message) ? protocolError(message, isResource) : undefined;
    if (error === undefined) dispatch?.(message, extra);
    else void transport.send({ jsonrpc: '2.0', id: (message as JSONRPCRequest).id, error });
  };
  // 8. docs/mcp.md (errors): no message carries the prefix, which a client's own McpError adds once more.
  const send = transport.send.bind(transport);
  transport.send = (message, options) => send(withoutPrefix(message), options);
}

/**
 * 9. The bundle budget (developers' guide: 350 KiB gzip, tests/budgets.test.ts). The SDK's server imports its Ajv
 * validator as the default even when another is given (53 KiB gzip, over the budget); Workers forbid Ajv's code
 * generation anyway. This Vite plugin (astro.config.mjs) makes the SDK's own Workers-safe validator that default.
 */
export const AJV_PROVIDER_IMPORT = '../validation/ajv-provider.js';
const WORKERS_SAFE_DEFAULT = '\0mcp-sdk-validator-for-workers';
export const sdkValidatorForWorkers = () => ({
  name: 'mcp-sdk-validator-for-workers',
  enforce: 'pre' as const,
  resolveId: (id: string, importer?: string) =>
    id === AJV_PROVIDER_IMPORT && importer?.includes('@modelcontextprotocol/sdk') ? WORKERS_SAFE_DEFAULT : null,
  load: (id: string) =>
    id === WORKERS_SAFE_DEFAULT
      ? "export { CfWorkerJsonSchemaValidator as AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';"
      : null,
});
