import { MCP_TOOLS } from './catalogue.ts';

/**
 * The few requests an agent's first exchange with the server consists of, recognised without the SDK: `initialize`,
 * `notifications/initialized`, `ping`, `tools/list` and `tools/call` of one of the board's tools, each alone in
 * its body and in the plainest form the protocol allows. The shape each must have is a strict subset of what the
 * SDK accepts, so that any message this does not recognise (a batch, `_meta`, a cursor, an unusual capability,
 * anything invalid) goes to the SDK, which stays the reference for every answer (functions/mcp/handler.ts).
 */

export type ToolName = keyof typeof MCP_TOOLS;
export type RequestId = string | number;
export type CommonRequest =
  | { method: 'initialize'; id: RequestId; protocolVersion: string }
  | { method: 'notifications/initialized' }
  | { method: 'ping' | 'tools/list'; id: RequestId }
  | { method: 'tools/call'; id: RequestId; name: ToolName; arguments: Record<string, unknown> };

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const hasOnly = (value: Json, keys: readonly string[]) => Object.keys(value).every((key) => keys.includes(key));
const isEmpty = (value: unknown) => value === undefined || (isObject(value) && Object.keys(value).length === 0);
/** JSON-RPC ids as MCP takes them: a string or an integer. */
const isRequestId = (id: unknown): id is RequestId =>
  typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));

/** Capabilities as most clients send them: each one empty, `roots` with at most its `listChanged` flag. */
function plainCapabilities(capabilities: unknown): boolean {
  if (!isObject(capabilities)) return false;
  return Object.entries(capabilities).every(([name, value]) => {
    if (!isObject(value)) return false;
    if (name === 'roots')
      return hasOnly(value, ['listChanged']) && ['boolean', 'undefined'].includes(typeof value.listChanged);
    return ['sampling', 'elicitation', 'experimental'].includes(name) && Object.keys(value).length === 0;
  });
}
function plainInitializeParams(params: unknown): params is { protocolVersion: string } {
  if (!isObject(params) || !hasOnly(params, ['protocolVersion', 'capabilities', 'clientInfo'])) return false;
  const { protocolVersion, capabilities, clientInfo } = params;
  return (
    typeof protocolVersion === 'string' &&
    plainCapabilities(capabilities) &&
    isObject(clientInfo) &&
    hasOnly(clientInfo, ['name', 'version', 'title']) &&
    typeof clientInfo.name === 'string' &&
    typeof clientInfo.version === 'string' &&
    ['string', 'undefined'].includes(typeof clientInfo.title)
  );
}

/** The message as one of the common requests, or null for the SDK to answer. */
export function commonRequest(message: unknown): CommonRequest | null {
  if (!isObject(message) || !hasOnly(message, ['jsonrpc', 'id', 'method', 'params'])) return null;
  const { jsonrpc, id, method, params } = message;
  if (jsonrpc !== '2.0') return null;
  if (method === 'notifications/initialized') return !('id' in message) && isEmpty(params) ? { method } : null;
  if (!isRequestId(id)) return null;
  if (method === 'initialize')
    return plainInitializeParams(params) ? { method, id, protocolVersion: params.protocolVersion } : null;
  if (method === 'ping' || method === 'tools/list') return isEmpty(params) ? { method, id } : null;
  if (method !== 'tools/call' || !isObject(params) || !hasOnly(params, ['name', 'arguments'])) return null;
  const { name, arguments: args = {} } = params;
  if (typeof name !== 'string' || !Object.hasOwn(MCP_TOOLS, name) || !isObject(args)) return null;
  return { method, id, name: name as ToolName, arguments: args };
}

/** Spec 4.7: an answer as a stream when the client's Accept lists `text/event-stream`, else as JSON. */
export const wantsEventStream = (accept: string | null): boolean => (accept ?? '').includes('text/event-stream');

/** The version `initialize` answers, as the SDK negotiates it: the client's if supported, else the latest. */
export const negotiatedVersion = (requested: string, versions: { latest: string; supported: readonly string[] }) =>
  versions.supported.includes(requested) ? requested : versions.latest;

/** A JSON-RPC result, its members in the order the SDK writes them (`result`, `jsonrpc`, `id`). */
export const resultMessage = (id: RequestId, result: unknown) => ({ result, jsonrpc: '2.0' as const, id });
