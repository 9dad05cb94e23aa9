import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { EdgeContext } from '../context.ts';
import { createBoardMcpServer } from './server.ts';

/**
 * POST /mcp and /api/mcp (spec 4.7): stateless Streamable HTTP. Method, rate limit and response framing are
 * decided here; the SDK's transport checks the media type, the body size and the JSON-RPC itself.
 */

export const MCP_BODY_LIMIT_BYTES = 64 * 1024;
const RATE_LIMIT_PERIOD_SECONDS = 60;
const ALLOW = 'POST, OPTIONS';

export const mcpPreflight = (): Response =>
  new Response(null, {
    status: 204,
    headers: {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Methods': ALLOW,
      'Access-Control-Allow-Headers': 'Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID',
      'Access-Control-Expose-Headers': 'Mcp-Session-Id, Retry-After',
      'Access-Control-Max-Age': '86400',
    },
  });

const rateLimited = (): Response =>
  Response.json(
    {
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32000,
        message:
          'Rate limit exceeded: at most 60 requests per minute per IP. Retry after the number of seconds in Retry-After.',
      },
    },
    { status: 429, headers: { 'Retry-After': String(RATE_LIMIT_PERIOD_SECONDS), 'Cache-Control': 'no-store' } },
  );

/** Whether this client may go on; a failing limiter lets the request through (logged), never a 500. */
async function withinRateLimit(limiter: RateLimit, request: Request): Promise<boolean> {
  const key = request.headers.get('CF-Connecting-IP') ?? 'unknown';
  try {
    return (await limiter.limit({ key })).success;
  } catch (error) {
    console.error('MCP rate limiter failed; letting the request through', error);
    return true;
  }
}

/**
 * The spec answers SSE to a client that accepts `text/event-stream`, and plain JSON otherwise; the SDK
 * insists on both media types in Accept, so the request it sees always lists both.
 */
function negotiate(request: Request): { request: Request; json: boolean } {
  const accept = request.headers.get('Accept') ?? '';
  const json = !accept.includes('text/event-stream');
  const headers = new Headers(request.headers);
  headers.set('Accept', 'application/json, text/event-stream');
  return { request: new Request(request, { headers }), json };
}

export async function handleMcp(request: Request, env: Env, context: EdgeContext): Promise<Response> {
  if (request.method === 'OPTIONS') return mcpPreflight();
  if (request.method !== 'POST') {
    return Response.json(
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: 'Method not allowed: send JSON-RPC messages with POST.' },
      },
      { status: 405, headers: { Allow: ALLOW } },
    );
  }
  if (!(await withinRateLimit(env.MCP_RATE_LIMITER, request))) return rateLimited();

  const negotiated = negotiate(request);
  // No session id generator: stateless, a fresh server and transport per request.
  const transport = new WebStandardStreamableHTTPServerTransport({
    enableJsonResponse: negotiated.json,
    maxRequestBodySize: MCP_BODY_LIMIT_BYTES,
  });
  const server = createBoardMcpServer(context);
  await server.connect(transport);
  return transport.handleRequest(negotiated.request);
}
