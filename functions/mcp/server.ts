import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
import { buildTimelineResponse, newestEventsRead } from '../../src/core/api/timeline.ts';
import { boardFromSummaries, statusFromSummary } from '../../src/core/board.ts';
import { ProviderSchema } from '../../src/core/enums.ts';
import { PROVIDER_LABELS } from '../../src/core/i18n/labels.ts';
import * as catalogue from '../../src/core/mcp/catalogue.ts';
import { type Provider, PROVIDERS } from '../../src/core/vocabulary.ts';
import { BASE_URL } from '../../src/server/base-url.ts';
import { boardMarkdown } from '../../src/server/board-markdown.ts';
import { SERVES_SAMPLE_DATA } from '../../src/server/sample-data.ts';
import { type McpContext, toolAnswers } from './tools.ts';

const contents = (uri: URL, mimeType: string, text: string) => ({ contents: [{ uri: uri.href, mimeType, text }] });

const completeProvider = (typed: string | undefined) => PROVIDERS.filter((id) => id.startsWith(typed ?? ''));
/** Marked once per isolate: `completable` marks the schema object itself (here a copy of the tool's), once. */
const promptProvider = completable(
  catalogue.MCP_TOOLS.get_forecast.inputSchema.shape.provider.describe('the provider'),
  completeProvider,
);

/**
 * A fresh server over the board at the request's time, as the SDK's stateless examples make one per request.
 * `sampleData`: whether the data is the fictional sample set, fixed by the build (src/server/sample-data.ts).
 */
export function createBoardMcpServer(context: McpContext, sampleData = SERVES_SAMPLE_DATA): McpServer {
  const server = new McpServer(catalogue.mcpServerInfo(BASE_URL), {
    instructions: catalogue.mcpInstructions(sampleData),
    // Workers forbid the code generation of the SDK's default validator (Ajv); this one interprets schemas.
    jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
  });
  const { now } = context;
  const summary = async (provider: Provider) => (await context.summaries())[provider];
  const board = async () => boardFromSummaries(await context.summaries(), now);
  const { MCP_TOOLS: tools, MCP_RESOURCES: resources } = catalogue;
  const answers = toolAnswers(context, sampleData);
  server.registerTool('get_status', tools.get_status, () => answers.get_status({}));
  server.registerTool('get_timeline', tools.get_timeline, (args) => answers.get_timeline(args));
  server.registerTool('get_next_estimate', tools.get_next_estimate, (args) => answers.get_next_estimate(args));
  server.registerTool('get_forecast', tools.get_forecast, (args) => answers.get_forecast(args));

  const timeline = async (provider: Provider | 'all') => {
    const selection = { provider, limit: 200 };
    return buildTimelineResponse(await context.dataset(newestEventsRead(selection)), selection, now);
  };
  const read = {
    board: async () => JSON.stringify(await board()),
    timeline: async () => JSON.stringify(await timeline('all')),
    'board-markdown': () => boardMarkdown(context, 'en'),
  };
  for (const [name, { uri, ...metadata }] of Object.entries(resources))
    server.registerResource(name, `${BASE_URL}${uri}`, metadata, async (url) =>
      contents(url, metadata.mimeType, await read[name as keyof typeof resources]()),
    );

  for (const [name, { uri, ...metadata }] of Object.entries(catalogue.MCP_RESOURCE_TEMPLATES)) {
    const template: ResourceTemplate = new ResourceTemplate(`${BASE_URL}${uri}`, {
      list: () => ({
        resources: PROVIDERS.map((provider) => ({
          uri: template.uriTemplate.expand({ provider }),
          name: `${name}-${provider}`,
          title: metadata.title.replace('One provider’s', `${PROVIDER_LABELS.en[provider]}:`),
          mimeType: metadata.mimeType,
        })),
      }),
      complete: { provider: completeProvider },
    });
    server.registerResource(name, template, metadata, async (url, variables) => {
      const { success, data: provider } = ProviderSchema.safeParse(variables.provider);
      // SEP-2164: a resource not found is -32602 with its URI (the SDK's own answer to a URI no resource matches).
      if (!success) throw new McpError(ErrorCode.InvalidParams, `Resource ${url} not found`, { uri: url.href });
      const body =
        name === 'provider-status' ? statusFromSummary(await summary(provider), now) : await timeline(provider);
      return contents(url, metadata.mimeType, JSON.stringify(body));
    });
  }

  const { text, ...prompt } = catalogue.SHOULD_I_WAIT;
  server.registerPrompt('should-i-wait', { ...prompt, argsSchema: { provider: promptProvider } }, ({ provider }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: text(provider, PROVIDER_LABELS.en[provider]) } }],
  }));
  return server;
}
