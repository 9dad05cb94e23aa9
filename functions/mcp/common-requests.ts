import { MCP_TOOLS } from '../../src/core/mcp/catalogue.ts';
import {
  type CommonRequest,
  negotiatedVersion,
  resultMessage,
  type ToolName,
} from '../../src/core/mcp/common-requests.ts';
import {
  isRecordedMcpAnswers,
  MCP_ANSWERS_PATH,
  type RecordedMcpAnswers,
} from '../../src/core/mcp/recorded-answers.ts';
import type { EdgeContext } from '../../src/server/context.ts';
import { SERVES_SAMPLE_DATA } from '../../src/server/sample-data.ts';
import { toolAnswers } from './tools.ts';

/**
 * The common requests (src/core/mcp/common-requests.ts) answered without loading the SDK: `initialize` and
 * `tools/list` from the SDK's answers recorded at build time, `tools/call` with the tools the SDK's server
 * registers (tools.ts), framed as the SDK's transport frames a single answer. `null`: the SDK answers instead.
 * tests/mcp-two-paths.test.ts holds each answer to the SDK's, byte for byte.
 */

/** Once per isolate: the recorded answers belong to the build, which an isolate never outlives. */
let recorded: Promise<RecordedMcpAnswers | null> | undefined;
function recordedAnswers(context: EdgeContext): Promise<RecordedMcpAnswers | null> {
  recorded ??= context.env.ASSETS.fetch(new Request(new URL(MCP_ANSWERS_PATH, context.url.origin)))
    .then(async (response) => {
      const value: unknown = response.ok ? await response.json() : null;
      return isRecordedMcpAnswers(value) ? value : null;
    })
    .catch(() => null)
    .then((value) => {
      // A missing file is not remembered: the next request tries again.
      if (value === null) recorded = undefined;
      return value;
    });
  return recorded;
}

/**
 * A tool's answer, or null where the SDK's would differ (arguments it refuses, a failure). The result is not checked
 * against the tool's output schema here, as the SDK checks it: the tools compute it from the build's validated data,
 * as the HTTP routes that answer the same do unchecked, and the check was half of a first tools/call's CPU (zod
 * compiling the schema). two-paths.test.ts compares each answer with the SDK's, which does check it.
 */
async function toolResult(context: EdgeContext, name: ToolName, args: Record<string, unknown>) {
  const parsed = MCP_TOOLS[name].inputSchema.safeParse(args);
  if (!parsed.success) return null;
  try {
    const answer = toolAnswers(context, SERVES_SAMPLE_DATA)[name] as (input: unknown) => Promise<object>;
    return await answer(parsed.data);
  } catch {
    return null;
  }
}

type AnsweredRequest = Exclude<CommonRequest, { method: 'notifications/initialized' }>;
async function resultOf(context: EdgeContext, request: AnsweredRequest, answers: RecordedMcpAnswers) {
  switch (request.method) {
    case 'initialize':
      return {
        ...answers.initialize,
        protocolVersion: negotiatedVersion(request.protocolVersion, answers.protocolVersions),
      };
    case 'tools/list':
      return answers.toolsList;
    case 'ping':
      return {};
    case 'tools/call':
      return toolResult(context, request.name, request.arguments);
  }
}

/** As the SDK's transport answers one request: JSON, or one `message` event of a stream it then closes. */
function framed(message: object, sse: boolean): Response {
  if (!sse) return new Response(JSON.stringify(message), { headers: { 'Content-Type': 'application/json' } });
  return new Response(`event: message\ndata: ${JSON.stringify(message)}\n\n`, {
    headers: {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    },
  });
}

export async function answerCommonRequest(
  context: EdgeContext,
  request: CommonRequest,
  sse: boolean,
): Promise<Response | null> {
  const answers = await recordedAnswers(context);
  if (answers === null) return null;
  // After initialize, a version the SDK does not support is its 400 (the transport's own check).
  const version = context.request.headers.get('mcp-protocol-version');
  if (request.method !== 'initialize' && version !== null && !answers.protocolVersions.supported.includes(version))
    return null;
  if (request.method === 'notifications/initialized') return new Response(null, { status: 202 });
  const result = await resultOf(context, request, answers);
  return result === null ? null : framed(resultMessage(request.id, result), sse);
}
