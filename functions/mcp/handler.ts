import { readRequestBody, requestBodyTooLargeMessage } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { MCP_TOOLS } from '../../src/core/mcp/catalogue.ts';
import type { EdgeContext } from '../../src/server/context.ts';
import { RATE_LIMIT_PERIOD_SECONDS, secondsLeftInWindow, withinRateLimit } from '../../src/server/http/rate-limit.ts';
import { isJsonBody } from '../../src/server/http/request.ts';
import { jsonResponse } from '../../src/server/http/responses.ts';
import { screenBody, type JsonRpcErrorObject, type RequestId } from './json-rpc.ts';
import { guardProtocol } from './protocol.ts';
import { createBoardMcpServer, isOfferedResource } from './server.ts';

/**
 * POST /mcp and /api/mcp (spec 4.7): stateless Streamable HTTP. The rate limit and the response framing are
 * decided here; the SDK's transport checks the media type, the body size and the JSON-RPC itself.
 */

export const MCP_BODY_LIMIT_BYTES = 64 * 1024;
const rateLimited = (now: Date): Response =>
  Response.json(
    {
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32000,
        message: `Rate limit exceeded: at most 60 requests (each message of a batch counts) per ${RATE_LIMIT_PERIOD_SECONDS} s per IP. Retry after the number of seconds in Retry-After.`,
      },
    },
    { status: 429, headers: { 'Retry-After': String(secondsLeftInWindow(now)), 'Cache-Control': 'no-store' } },
  );

/**
 * The spec answers SSE to a client that accepts `text/event-stream`, and plain JSON otherwise; the SDK
 * insists on both media types in Accept, so the request it sees always lists both. That request has no body:
 * the handler reads the body from the request itself and hands the transport what it parsed. (A copy made with
 * the body would take it over, and a body refused unread would stay in the copy, where the edge's
 * readRestOfBody never sees it.)
 */
function negotiate(request: Request): { request: Request; json: boolean } {
  const accept = request.headers.get('Accept') ?? '';
  const json = !accept.includes('text/event-stream');
  const headers = new Headers(request.headers);
  headers.set('Accept', 'application/json, text/event-stream');
  return { request: new Request(request.url, { method: request.method, headers }), json };
}

const jsonRpcError = (status: number, id: RequestId | null, error: JsonRpcErrorObject): Response =>
  jsonResponse({ jsonrpc: '2.0', id, error }, { status, headers: { 'Cache-Control': 'no-store' } });

/** A POST (the route table answers every other method). */
export async function handleMcp(context: EdgeContext): Promise<Response> {
  const { request } = context;
  // One request counts before its body is read, so that bodies refused unread (413, 415, bad JSON) count too.
  const limiter = context.env.MCP_RATE_LIMITER;
  if (!(await withinRateLimit(limiter, request, 'MCP'))) return rateLimited(context.now);

  const negotiated = negotiate(request);
  // No session id generator: stateless, a fresh server and transport per request.
  const transport = new WebStandardStreamableHTTPServerTransport({
    enableJsonResponse: negotiated.json,
    maxRequestBodySize: MCP_BODY_LIMIT_BYTES,
  });
  // Another media type: the transport's own 415. A JSON body is read and screened here first (json-rpc.ts).
  let parsedBody: unknown;
  if (isJsonBody(request)) {
    const body = await readRequestBody(request, MCP_BODY_LIMIT_BYTES);
    if (body.tooLarge)
      return jsonRpcError(413, null, { code: -32000, message: requestBodyTooLargeMessage(MCP_BODY_LIMIT_BYTES) });
    const screened = screenBody(body.text, request.headers.get('MCP-Protocol-Version'));
    if (!screened.ok) return jsonRpcError(400, screened.id, screened.error);
    parsedBody = screened.body;
    // Each further message of a batch counts as one more request (decisions.md; at most MAX_BATCH_MESSAGES).
    const extra = Array.isArray(parsedBody) ? parsedBody.length - 1 : 0;
    if (extra > 0 && !(await withinRateLimit(limiter, request, 'MCP', extra))) return rateLimited(context.now);
  }
  const server = createBoardMcpServer(context);
  await server.connect(transport);
  guardProtocol(transport, { toolNames: Object.keys(MCP_TOOLS), isResource: isOfferedResource });
  return transport.handleRequest(negotiated.request, parsedBody === undefined ? undefined : { parsedBody });
}
