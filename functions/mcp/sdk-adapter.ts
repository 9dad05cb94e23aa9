import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import * as sdk from '@modelcontextprotocol/sdk/types.js';
import { MCP_TOOLS } from '../../src/core/mcp/catalogue.ts';
import { wantsEventStream } from '../../src/core/mcp/common-requests.ts';
import { JsonRpcIdSchema } from '../../src/core/schemas.ts';

/**
 * Every place the board answers otherwise than @modelcontextprotocol/sdk, each with the decision that needs it.
 * sdk-adapter.test.ts checks against the installed SDK that each is still needed and still takes effect; all
 * else is the SDK's own, used as its stateless example does (server.ts, handler.ts).
 */
export const ADAPTED_SDK_VERSION = '1.32.2';

/** A JSON-RPC error the handler answers `400` with, before the SDK sees the body. */
export type Refusal = { id: string | number | null; error: { code: number; message: string } };
const invalid = (message: string, id: Refusal['id'] = null) => ({ id, error: { code: -32600, message } });

/**
 * 1. Spec 4.7: SSE when Accept lists `text/event-stream`, else the same message as JSON. The transport refuses
 * (406) an Accept without both, so it gets a copy that lists both (without the body, which the handler reads).
 */
export function negotiate(request: Request): { request: Request; json: boolean } {
  const headers = new Headers(request.headers);
  headers.set('Accept', 'application/json, text/event-stream');
  const json = !wantsEventStream(request.headers.get('Accept'));
  return { request: new Request(request.url, { method: request.method, headers }), json };
}

const MAX_BATCH_MESSAGES = 20;
/**
 * 2. decisions.md (a batch holds at most 20 messages, each counting against the rate limit) and JSON-RPC 2.0 §5.1,
 * which MCP's messages follow, where the transport runs batches of any length, answers JSON that is no message
 * -32700 and `[]` 202: not JSON -32700; an empty or too long batch, JSON that is no message -32600 (with its id
 * if readable). The handler counts the messages before any runs.
 */
export function screenBody(text: string): { body: unknown; messages: number } | Refusal {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { id: null, error: { code: -32700, message: 'Parse error: the body is not JSON' } };
  }
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  const count = messages.length;
  if (count === 0) return invalid('Invalid Request: an empty batch');
  if (count > MAX_BATCH_MESSAGES)
    return invalid(`Invalid Request: a batch of ${count} messages; at most ${MAX_BATCH_MESSAGES} per request`);
  const wrong = messages.find((message) => !sdk.JSONRPCMessageSchema.safeParse(message).success);
  if (wrong === undefined) return { body, messages: count };
  const readableId = JsonRpcIdSchema.catch(null).parse(Object(wrong).id);
  return invalid('Invalid Request: not a JSON-RPC 2.0 request, notification or response (params by name)', readableId);
}

/**
 * 3. JSON-RPC 2.0 §5.1 and MCP 2025-11-25 (tools: "protocol errors"), where the SDK answers params that do not fit
 * the method -32603 (an internal error) with a dump of zod's issues, and an unknown tool as a tool result: -32602.
 */
const REQUEST_SCHEMAS = new Map(sdk.ClientRequestSchema.options.map((schema) => [schema.shape.method.value, schema]));
function protocolError({ method, params = {} }: sdk.JSONRPCRequest) {
  const issue = REQUEST_SCHEMAS.get(method as never)?.safeParse({ method, params }).error?.issues[0];
  if (issue !== undefined)
    return { code: -32602, message: `Invalid params for ${method}: ${issue.path.join('.')}: ${issue.message}` };
  const { name } = params as { name?: unknown };
  if (method === 'tools/call' && !Object.hasOwn(MCP_TOOLS, String(name)))
    return { code: -32602, message: `Unknown tool: ${String(name)} (tools: ${Object.keys(MCP_TOOLS).join(', ')})` };
  return undefined;
}

/** The server on the transport, each request checked (3) as it reaches the server. */
export async function connectAdapted(server: McpServer, transport: WebStandardStreamableHTTPServerTransport) {
  await server.connect(transport);
  const dispatch = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const error = sdk.isJSONRPCRequest(message) ? protocolError(message) : undefined;
    if (error === undefined) dispatch?.(message, extra);
    else void transport.send({ jsonrpc: '2.0', id: (message as sdk.JSONRPCRequest).id, error });
  };
}

/**
 * 4. The developers' guide's bundle budget (350 KiB gzip, tests/budgets.test.ts): the SDK's server imports Ajv as
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
