import { readRequestBody, requestBodyTooLargeMessage } from '@modelcontextprotocol/sdk/server/requestBody.js';
import type { EdgeContext } from '../../src/server/context.ts';
import { RATE_LIMIT_PERIOD_SECONDS, secondsLeftInWindow, withinRateLimit } from '../../src/server/http/rate-limit.ts';
import { isJsonBody } from '../../src/server/http/request.ts';
import { jsonResponse } from '../../src/server/http/responses.ts';
import { commonRequest, wantsEventStream } from '../../src/core/mcp/common-requests.ts';
import { answerCommonRequest } from './common-requests.ts';
import type { Refusal } from './sdk-adapter.ts';

/**
 * POST /mcp and /api/mcp (spec 4.7), behind the rate limit (decisions.md): the SDK's stateless Streamable HTTP,
 * loaded by the first request that needs it; the few requests of an agent's first exchange are answered without
 * it, as the SDK answers them (common-requests.ts; docs/mcp.md, "Two paths, one answer").
 */

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
  // The body is read here, never by the transport: a body it refused unread would stay where the edge's
  // readRestOfBody could not reach it (docs/mcp.md). Another media type: the transport's own 415.
  let bodyText: string | undefined;
  if (isJsonBody(request)) {
    const body = await readRequestBody(request, BODY_LIMIT_BYTES);
    if (body.tooLarge) return answer(413, serverError(requestBodyTooLargeMessage(BODY_LIMIT_BYTES)));
    const common = commonRequest(parseJson(body.text));
    const sse = wantsEventStream(request.headers.get('Accept'));
    const commonAnswer = common === null ? null : await answerCommonRequest(context, common, sse);
    if (commonAnswer !== null) return commonAnswer;
    bodyText = body.text;
  }
  const sdk = await import('./sdk-adapter.ts');
  let parsedBody: unknown;
  if (bodyText !== undefined) {
    const screened = sdk.screenBody(bodyText);
    if ('error' in screened) return answer(400, screened);
    parsedBody = screened.body;
    // Each further message of a batch counts as one more request (decisions.md).
    const extra = screened.messages - 1;
    if (extra > 0 && !(await withinRateLimit(limiter, request, 'MCP', extra))) return rateLimited(context.now);
  }
  return (await import('./sdk-path.ts')).answerWithSdk(context, sdk.negotiate(request), parsedBody);
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};
