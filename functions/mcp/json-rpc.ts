import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * What JSON-RPC 2.0 (section 5.1) and MCP 2025-11-25 say a body that is not one good message must get, checked
 * before the SDK's transport, which answers every such body `-32700 Parse error`:
 * - not JSON at all: `-32700`;
 * - JSON that is not a request, notification or response (`{"hello":"world"}`, `42`, an empty batch `[]`):
 *   `-32600 Invalid Request`, with the id when one can be read;
 * - a request whose params are a list (JSON-RPC allows it; MCP's methods take named params): `-32602`;
 * - a batch under protocol revision 2025-06-18 or later, which removed them: `-32600`. A client that sends no
 *   `MCP-Protocol-Version` is on 2025-03-26 (the transport spec's default), where batches still exist;
 * - a batch of more than `MAX_BATCH_MESSAGES`, whatever the protocol revision: `-32600`.
 */

export const JSON_RPC_ERRORS = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  /** MCP: `resources/read` of a URI the server does not have. */
  resourceNotFound: -32002,
} as const;

/**
 * The most messages one batch may hold (decisions.md): each counts against the rate limit, and a batch is
 * answered in one body, so a larger one would let one request do a minute's work in one response.
 */
export const MAX_BATCH_MESSAGES = 20;

/** The first protocol revision without JSON-RPC batches. */
export const BATCHES_REMOVED_IN = '2025-06-18';

export type RequestId = string | number;
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}
export type Screened =
  | { ok: true; body: JSONRPCMessage | JSONRPCMessage[] }
  | { ok: false; id: RequestId | null; error: JsonRpcErrorObject };

type Refusal = Extract<Screened, { ok: false }>;

const refuse = (code: number, message: string, id: RequestId | null = null): Refusal => ({
  ok: false,
  id,
  error: { code, message },
});

/** The id of a message, when it is one JSON-RPC allows (a string or an integer). */
function readableId(message: unknown): RequestId | null {
  if (message === null || typeof message !== 'object' || !('id' in message)) return null;
  const { id } = message;
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : null;
}

function screenMessage(message: unknown): { ok: true; message: JSONRPCMessage } | Refusal {
  const parsed = JSONRPCMessageSchema.safeParse(message);
  if (parsed.success) return { ok: true, message: parsed.data };
  const id = readableId(message);
  const fields = message !== null && typeof message === 'object' ? (message as Record<string, unknown>) : {};
  if (fields.jsonrpc === '2.0' && typeof fields.method === 'string' && Array.isArray(fields.params))
    return refuse(
      JSON_RPC_ERRORS.invalidParams,
      `Invalid params: ${fields.method} takes its params by name (an object)`,
      id,
    );
  return refuse(
    JSON_RPC_ERRORS.invalidRequest,
    'Invalid Request: not a JSON-RPC 2.0 request, notification or response ({"jsonrpc": "2.0", "id", "method", "params"})',
    id,
  );
}

export function screenBody(text: string, protocolVersion: string | null): Screened {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return refuse(JSON_RPC_ERRORS.parseError, 'Parse error: the body is not JSON');
  }
  if (!Array.isArray(body)) {
    const screened = screenMessage(body);
    return screened.ok ? { ok: true, body: screened.message } : screened;
  }
  if (body.length === 0) return refuse(JSON_RPC_ERRORS.invalidRequest, 'Invalid Request: an empty batch');
  if (protocolVersion !== null && protocolVersion >= BATCHES_REMOVED_IN)
    return refuse(
      JSON_RPC_ERRORS.invalidRequest,
      `Invalid Request: protocol revision ${protocolVersion} has no batches (removed in ${BATCHES_REMOVED_IN}); send one message per request`,
    );
  if (body.length > MAX_BATCH_MESSAGES)
    return refuse(
      JSON_RPC_ERRORS.invalidRequest,
      `Invalid Request: a batch of ${body.length} messages; at most ${MAX_BATCH_MESSAGES} per request`,
    );
  const messages: JSONRPCMessage[] = [];
  for (const item of body) {
    const screened = screenMessage(item);
    if (!screened.ok) return screened;
    messages.push(screened.message);
  }
  return { ok: true, body: messages };
}
