import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { EdgeContext } from '../../src/server/context.ts';
import { connectAdapted } from './sdk-adapter.ts';
import { createBoardMcpServer } from './server.ts';

/**
 * Every request the common path leaves (handler.ts): the SDK's stateless Streamable HTTP, a fresh server and
 * transport per request, as its examples make them. Loaded by the first such request of an isolate.
 */
export async function answerWithSdk(
  context: EdgeContext,
  negotiated: { request: Request; json: boolean },
  parsedBody: unknown,
): Promise<Response> {
  // No session id generator: stateless.
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: negotiated.json });
  await connectAdapted(createBoardMcpServer(context), transport);
  return transport.handleRequest(negotiated.request, parsedBody === undefined ? undefined : { parsedBody });
}
