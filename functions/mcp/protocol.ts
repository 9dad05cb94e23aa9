import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  ClientRequestSchema,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { JSON_RPC_ERRORS, type JsonRpcErrorObject } from './json-rpc.ts';

/**
 * The protocol errors of MCP 2025-11-25, where the SDK (1.32) answers otherwise:
 * - params that do not fit the method (`tools/call` without a name) are `-32602 Invalid params` with what is
 *   wrong, not `-32603` with a dump of zod's issues;
 * - an unknown tool is the protocol error `-32602` (the SDK answers it as a tool result with `isError`);
 * - an unknown resource is `-32002 Resource not found` with its URI (the SDK: `-32602`);
 * - no message says "MCP error -32602:" (the SDK's McpError puts that in every message, and a client's own
 *   McpError adds it again).
 */

export interface Offered {
  toolNames: readonly string[];
  /** Whether resources/read can answer this URI (a fixed resource or a template's). */
  isResource: (uri: string) => boolean;
}

const REQUEST_SCHEMAS = new Map(ClientRequestSchema.options.map((schema) => [schema.shape.method.value, schema]));
const SDK_PREFIX = /^MCP error -?\d+: /;

function paramsProblem(request: JSONRPCRequest, offered: Offered): JsonRpcErrorObject | undefined {
  const schema = REQUEST_SCHEMAS.get(request.method as never);
  if (schema === undefined) return undefined;
  const parsed = schema.safeParse({ method: request.method, params: request.params });
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.map(String).join('.') || 'params'}: ${issue.message}`);
    return {
      code: JSON_RPC_ERRORS.invalidParams,
      message: `Invalid params for ${request.method}: ${issues.join('; ')}`,
    };
  }
  const params = (request.params ?? {}) as Record<string, unknown>;
  if (request.method === 'tools/call' && !offered.toolNames.includes(String(params.name)))
    return {
      code: JSON_RPC_ERRORS.invalidParams,
      message: `Unknown tool: ${String(params.name)} (tools: ${offered.toolNames.join(', ')})`,
    };
  if (request.method === 'resources/read' && !offered.isResource(String(params.uri)))
    return { code: JSON_RPC_ERRORS.resourceNotFound, message: 'Resource not found', data: { uri: params.uri } };
  return undefined;
}

/** A response as it leaves: messages without the SDK's "MCP error -32602:" prefix. */
function withPlainMessages(message: JSONRPCMessage): JSONRPCMessage {
  if (isJSONRPCErrorResponse(message))
    return { ...message, error: { ...message.error, message: message.error.message.replace(SDK_PREFIX, '') } };
  if (isJSONRPCResultResponse(message) && message.result.isError === true && Array.isArray(message.result.content)) {
    const content = (message.result.content as { type: string; text?: string }[]).map((block) =>
      block.type === 'text' && typeof block.text === 'string'
        ? { ...block, text: block.text.replace(SDK_PREFIX, '') }
        : block,
    );
    return { ...message, result: { ...message.result, content } };
  }
  return message;
}

/** Call after `server.connect(transport)` and before the transport handles the request. */
export function guardProtocol(transport: WebStandardStreamableHTTPServerTransport, offered: Offered): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => send(withPlainMessages(message), options);
  const dispatch = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const problem = isJSONRPCRequest(message) ? paramsProblem(message, offered) : undefined;
    if (problem === undefined || !isJSONRPCRequest(message)) return dispatch?.(message, extra);
    void transport.send({ jsonrpc: '2.0', id: message.id, error: problem });
  };
}
