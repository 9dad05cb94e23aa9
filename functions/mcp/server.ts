import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { UriTemplate, type Variables } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import {
  InitializeRequestSchema,
  LATEST_PROTOCOL_VERSION,
  ListToolsRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
import { buildTimelineResponse } from '../../src/core/api/timeline.ts';
import { boardFromSummaries, estimateFromSummary, statusFromSummary } from '../../src/core/board.ts';
import { recentEvents, summariesOf } from '../../src/core/dataset.ts';
import { forecastFromSummary } from '../../src/core/forecast/rule.ts';
import {
  MCP_CAPABILITIES,
  MCP_INSTRUCTIONS,
  MCP_PROMPTS,
  MCP_RESOURCE_TEMPLATES,
  MCP_RESOURCES,
  MCP_TOOLS,
  mcpServerInfo,
  mcpToolList,
  ForecastToolInput,
  NextEstimateToolInput,
  READ_ONLY_TOOL,
  TimelineToolInput,
  type TimelineToolResult,
} from '../../src/core/mcp/catalogue.ts';
import { roundNumbers } from '../../src/core/mcp/json-schema.ts';
import { MARKDOWN_LATEST_COUNT, renderBoardMarkdown } from '../../src/core/render/markdown.ts';
import { SERVES_SAMPLE_DATA } from '../../src/server/sample-data.ts';
import { eventPageUrl } from '../../src/core/site.ts';
import { PROVIDER_LABELS } from '../../src/core/i18n/labels.ts';
import { type Provider, PROVIDERS } from '../../src/core/vocabulary.ts';
import type { EdgeContext } from '../../src/server/context.ts';
import { BASE_URL } from '../../src/server/base-url.ts';

/**
 * A tool result as the spec wants it: the JSON as a text block, and the same object as structuredContent, both
 * with numbers to three decimals (`daysSince` to the minute and a half, not to the picosecond).
 */
const toolResult = <T extends object>(value: T) => {
  const rounded = roundNumbers(value);
  return {
    content: [{ type: 'text' as const, text: JSON.stringify(rounded) }],
    structuredContent: rounded as T & Record<string, unknown>,
  };
};

const READ_ONLY = READ_ONLY_TOOL;

/** The URIs of the resources, as registered below and checked by resources/read (functions/mcp/protocol.ts). */
export const resourceUris = (): string[] =>
  Object.values(MCP_RESOURCES).map((resource) => `${BASE_URL}${resource.path}`);

const resourceTemplate = (name: keyof typeof MCP_RESOURCE_TEMPLATES) =>
  new UriTemplate(`${BASE_URL}${MCP_RESOURCE_TEMPLATES[name].uriTemplate}`);

/** The provider a template's URI names, when it names one of the three. */
const providerOf = (variables: Variables): Provider | undefined => {
  const value = variables.provider;
  return PROVIDERS.find((provider) => provider === value);
};

/** The provider ids that begin with what the client has typed (completion/complete). */
const completeProvider = (typed: string | undefined): Provider[] =>
  PROVIDERS.filter((provider) => provider.startsWith(typed ?? ''));

/** The prompt's argument, made completable once: the SDK marks the schema object itself (a copy, not the tool's) and refuses to mark it twice. */
const promptProvider = completable(NextEstimateToolInput.provider.describe('the provider'), completeProvider);

/** Whether resources/read can answer `uri`: a fixed resource, or a template's URI naming a known provider. */
export const isOfferedResource = (uri: string): boolean =>
  resourceUris().includes(uri) ||
  (Object.keys(MCP_RESOURCE_TEMPLATES) as (keyof typeof MCP_RESOURCE_TEMPLATES)[]).some((name) => {
    const variables = resourceTemplate(name).match(uri);
    return variables !== null && providerOf(variables) !== undefined;
  });

/** tools/list depends on the code only: converted to JSON Schema once per isolate, when first asked. */
let listedTools: ReturnType<typeof mcpToolList> | undefined;

/** A fresh, stateless MCP server over the board at the request's time (one per request). */
export function createBoardMcpServer(context: EdgeContext): McpServer {
  const server = new McpServer(mcpServerInfo(BASE_URL), {
    instructions: MCP_INSTRUCTIONS,
    // Workers forbid the code generation Ajv relies on; this validator interprets schemas instead.
    jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
  });
  const board = async () => boardFromSummaries(summariesOf(await context.dataset()), context.now);

  server.registerTool('get_status', { ...MCP_TOOLS.get_status, annotations: READ_ONLY }, async () =>
    toolResult(await board()),
  );

  server.registerTool(
    'get_timeline',
    { ...MCP_TOOLS.get_timeline, inputSchema: TimelineToolInput, annotations: READ_ONLY },
    async ({ provider, limit, kind }) => {
      const selection = { provider, limit, ...(kind === undefined ? {} : { kind }) };
      const timeline = buildTimelineResponse(await context.dataset(), selection, context.now);
      const result: TimelineToolResult = {
        ...timeline,
        events: timeline.events.map((event) => ({ ...event, pageUrl: eventPageUrl(BASE_URL, event) })),
      };
      return toolResult(result);
    },
  );

  server.registerTool(
    'get_next_estimate',
    { ...MCP_TOOLS.get_next_estimate, inputSchema: NextEstimateToolInput, annotations: READ_ONLY },
    async ({ provider }) =>
      toolResult(estimateFromSummary((await context.dataset()).providers[provider].summary, context.now)),
  );

  server.registerTool(
    'get_forecast',
    { ...MCP_TOOLS.get_forecast, inputSchema: ForecastToolInput, annotations: READ_ONLY },
    async ({ provider }) =>
      toolResult(forecastFromSummary((await context.dataset()).providers[provider].summary, context.now)),
  );

  server.registerResource('board', `${BASE_URL}${MCP_RESOURCES.board.path}`, MCP_RESOURCES.board, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: MCP_RESOURCES.board.mimeType, text: JSON.stringify(await board()) }],
  }));
  server.registerResource(
    'timeline',
    `${BASE_URL}${MCP_RESOURCES.timeline.path}`,
    MCP_RESOURCES.timeline,
    async (uri) => {
      const timeline = buildTimelineResponse(await context.dataset(), { provider: 'all', limit: 200 }, context.now);
      return {
        contents: [{ uri: uri.href, mimeType: MCP_RESOURCES.timeline.mimeType, text: JSON.stringify(timeline) }],
      };
    },
  );
  server.registerResource(
    'board-markdown',
    `${BASE_URL}${MCP_RESOURCES['board-markdown'].path}`,
    MCP_RESOURCES['board-markdown'],
    async (uri) => {
      const events = recentEvents(await context.dataset(), 'all', MARKDOWN_LATEST_COUNT);
      const text = renderBoardMarkdown({
        board: await board(),
        events,
        baseUrl: BASE_URL,
        locale: 'en',
        sampleData: SERVES_SAMPLE_DATA,
      });
      return { contents: [{ uri: uri.href, mimeType: MCP_RESOURCES['board-markdown'].mimeType, text }] };
    },
  );

  for (const [name, template] of Object.entries(MCP_RESOURCE_TEMPLATES) as [
    keyof typeof MCP_RESOURCE_TEMPLATES,
    (typeof MCP_RESOURCE_TEMPLATES)[keyof typeof MCP_RESOURCE_TEMPLATES],
  ][]) {
    const uriTemplate = resourceTemplate(name);
    const { uriTemplate: _path, ...metadata } = template;
    server.registerResource(
      name,
      new ResourceTemplate(uriTemplate, {
        list: () => ({
          resources: PROVIDERS.map((provider) => ({
            uri: uriTemplate.expand({ provider }),
            name: `${name}-${provider}`,
            title: `${template.title.replace('One provider’s', `${PROVIDER_LABELS.en[provider]}:`)}`,
            mimeType: template.mimeType,
          })),
        }),
        complete: { provider: completeProvider },
      }),
      metadata,
      async (uri, variables) => {
        // The guard (protocol.ts) answers -32002 for any other provider before this runs.
        const provider = providerOf(variables) ?? PROVIDERS[0];
        const dataset = await context.dataset();
        const body =
          name === 'provider-status'
            ? statusFromSummary(dataset.providers[provider].summary, context.now)
            : buildTimelineResponse(dataset, { provider, limit: 200 }, context.now);
        return { contents: [{ uri: uri.href, mimeType: template.mimeType, text: JSON.stringify(body) }] };
      },
    );
  }

  server.registerPrompt(
    'should-i-wait',
    {
      ...MCP_PROMPTS['should-i-wait'],
      argsSchema: { provider: promptProvider },
    },
    ({ provider }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: [
              `I have hit my usage limit on ${PROVIDER_LABELS.en[provider]} (${provider}). Should I wait for a reset?`,
              `Call get_next_estimate with provider "${provider}" and get_status, then answer from those facts only:`,
              'the last reset and how long ago it was, the current status word, and the cadence estimate with the number of gaps it rests on.',
              'Say plainly that the estimate is not a vendor schedule and that no reset is promised; an estimate in the past means "any time now", not "late".',
              'If the history is too short for an estimate, say so instead of guessing. Link the original post of the last reset (sourceUrl).',
              `get_forecast with provider "${provider}" adds the chance of a reset within 1, 3 and 7 days: quote it as a pattern in past gaps, not a vendor plan, with the number of gaps it rests on.`,
            ].join(' '),
          },
        },
      ],
    }),
  );

  // The SDK lists schemas with `$ref`/`allOf` and long patterns; the catalogue's list is self-contained.
  server.server.setRequestHandler(ListToolsRequestSchema, () => {
    listedTools ??= mcpToolList();
    return { tools: listedTools };
  });
  // The SDK claims `listChanged` for every list it serves; a stateless server can never send that notification.
  // The same answer as the SDK's otherwise (its version negotiation), with the catalogue's capabilities.
  server.server.setRequestHandler(InitializeRequestSchema, ({ params }) => ({
    protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(params.protocolVersion)
      ? params.protocolVersion
      : LATEST_PROTOCOL_VERSION,
    capabilities: MCP_CAPABILITIES,
    serverInfo: mcpServerInfo(BASE_URL),
    instructions: MCP_INSTRUCTIONS,
  }));
  return server;
}
