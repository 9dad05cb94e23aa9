import { readRequestBody, requestBodyTooLargeMessage } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { EdgeContext } from '../../src/server/context.ts';
import { RATE_LIMIT_PERIOD_SECONDS, secondsLeftInWindow, withinRateLimit } from '../../src/server/http/rate-limit.ts';
import { isJsonBody } from '../../src/server/http/request.ts';
import { jsonResponse } from '../../src/server/http/responses.ts';
import { connectAdapted, negotiate, type Refusal, screenBody } from './sdk-adapter.ts';
import { createBoardMcpServer } from './server.ts';

/** POST /mcp and /api/mcp (spec 4.7): the SDK's stateless Streamable HTTP, behind the rate limit (decisions.md). */

const BODY_LIMIT_BYTES = 64 * 1024;
const RATE_LIMIT_MESSAGE = `Rate limit exceeded: at most 60 requests (each message of a batch counts) per ${RATE_LIMIT_PERIOD_SECONDS} s per IP. Retry after the number of seconds in Retry-After.`;

const answer = (status: number, { id, error }: Refusal, headers = {}): Response =>
  jsonResponse({ jsonrpc: '2.0', id, error }, { status, headers: { 'Cache-Control': 'no-store', ...headers } });
const serverError = (message: string) => ({ id: null, error: { code: -32000, message } });
const rateLimited = (now: Date) =>
  answer(429, serverError(RATE_LIMIT_MESSAGE), { 'Retry-After': `${secondsLeftInWindow(now)}` });

/** A POST (the route table answers every other method). */
export async function handleMcp(context: EdgeContext): Promise<Response> {
  const { request } = context;
  // One request counts before its body is read, so that bodies refused unread (413, 415, bad JSON) count too.
  const limiter = context.env.MCP_RATE_LIMITER;
  if (!(await withinRateLimit(limiter, request, 'MCP'))) return rateLimited(context.now);
  // No session id generator: stateless, a fresh server and transport per request.
  const negotiated = negotiate(request);
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: negotiated.json });
  // The body is read here, never by the transport: a body it refused unread would stay where the edge's
  // readRestOfBody could not reach it (docs/mcp.md). Another media type: the transport's own 415.
  let parsedBody: unknown;
  if (isJsonBody(request)) {
    const body = await readRequestBody(request, BODY_LIMIT_BYTES);
    if (body.tooLarge) return answer(413, serverError(requestBodyTooLargeMessage(BODY_LIMIT_BYTES)));
    const screened = screenBody(body.text);
    if ('error' in screened) return answer(400, screened);
    parsedBody = screened.body;
    // Each further message of a batch counts as one more request (decisions.md).
    const extra = screened.messages - 1;
    if (extra > 0 && !(await withinRateLimit(limiter, request, 'MCP', extra))) return rateLimited(context.now);
  }
  await connectAdapted(createBoardMcpServer(context), transport);
  return transport.handleRequest(negotiated.request, parsedBody === undefined ? undefined : { parsedBody });
}
