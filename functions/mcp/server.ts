import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
import { buildTimelineResponse } from '../../src/core/api/timeline.ts';
import { boardFromSummaries, estimateFromSummary, statusFromSummary } from '../../src/core/board.ts';
import { recentEvents, summariesOf } from '../../src/core/dataset.ts';
import { forecastFromSummary } from '../../src/core/forecast/rule.ts';
import { PROVIDER_LABELS } from '../../src/core/i18n/labels.ts';
import * as catalogue from '../../src/core/mcp/catalogue.ts';
import { MARKDOWN_LATEST_COUNT, renderBoardMarkdown } from '../../src/core/render/markdown.ts';
import { eventPageUrl } from '../../src/core/site.ts';
import { type Provider, PROVIDERS } from '../../src/core/vocabulary.ts';
import { BASE_URL } from '../../src/server/base-url.ts';
import type { EdgeContext } from '../../src/server/context.ts';
import { SERVES_SAMPLE_DATA } from '../../src/server/sample-data.ts';

/** Numbers to three decimals (a day to the minute and a half), in the text block and structuredContent alike. */
const rounded = (value: unknown): unknown => {
  if (typeof value === 'number') return Number.isInteger(value) ? value : Math.round(value * 1000) / 1000;
  if (Array.isArray(value)) return value.map(rounded);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, rounded(inner)]));
};
const toolResult = (value: object) => {
  const structuredContent = rounded(value) as Record<string, unknown>;
  return { content: [{ type: 'text' as const, text: JSON.stringify(structuredContent) }], structuredContent };
};
const contents = (uri: URL, mimeType: string, text: string) => ({ contents: [{ uri: uri.href, mimeType, text }] });

const isProvider = (value: unknown): value is Provider => PROVIDERS.some((provider) => provider === value);
const completeProvider = (typed: string | undefined) => PROVIDERS.filter((id) => id.startsWith(typed ?? ''));
/** Marked once per isolate: `completable` marks the schema object itself (here a copy of the tool's), once. */
const promptProvider = completable(
  catalogue.MCP_TOOLS.get_forecast.inputSchema.provider.describe('the provider'),
  completeProvider,
);
const templates = Object.entries(catalogue.MCP_RESOURCE_TEMPLATES).map(([name, { uriTemplate, ...metadata }]) => ({
  name,
  template: new UriTemplate(`${BASE_URL}${uriTemplate}`),
  metadata,
}));

/** Whether resources/read can answer `uri`: a fixed resource, or a template's naming one of the providers. */
export const isOfferedResource = (uri: string): boolean =>
  Object.values(catalogue.MCP_RESOURCES).some(({ path }) => `${BASE_URL}${path}` === uri) ||
  templates.some(({ template }) => isProvider(template.match(uri)?.provider));

/** A fresh server over the board at the request's time, as the SDK's stateless examples make one per request. */
export function createBoardMcpServer(context: EdgeContext): McpServer {
  const server = new McpServer(catalogue.mcpServerInfo(BASE_URL), {
    instructions: catalogue.MCP_INSTRUCTIONS,
    // Workers forbid the code generation of the SDK's default validator (Ajv); this one interprets schemas.
    jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
  });
  const { now } = context;
  const dataset = () => context.dataset();
  const summary = async (provider: Provider) => (await dataset()).providers[provider].summary;
  const board = async () => boardFromSummaries(summariesOf(await dataset()), now);
  const { MCP_TOOLS: tools, MCP_RESOURCES: resources } = catalogue;

  server.registerTool('get_status', tools.get_status, async () => toolResult(await board()));
  server.registerTool('get_timeline', tools.get_timeline, async ({ provider, limit, kind }) => {
    const selection = { provider, limit, ...(kind === undefined ? {} : { kind }) };
    const { events, ...timeline } = buildTimelineResponse(await dataset(), selection, now);
    return toolResult({
      ...timeline,
      events: events.map((event) => ({ ...event, pageUrl: eventPageUrl(BASE_URL, event) })),
    });
  });
  server.registerTool('get_next_estimate', tools.get_next_estimate, async ({ provider }) =>
    toolResult(estimateFromSummary(await summary(provider), now)),
  );
  server.registerTool('get_forecast', tools.get_forecast, async ({ provider }) =>
    toolResult(forecastFromSummary(await summary(provider), now)),
  );

  const timeline = async (provider: Provider | 'all') =>
    buildTimelineResponse(await dataset(), { provider, limit: 200 }, now);
  const read = {
    board: async () => JSON.stringify(await board()),
    timeline: async () => JSON.stringify(await timeline('all')),
    'board-markdown': async () =>
      renderBoardMarkdown({
        board: await board(),
        events: recentEvents(await dataset(), 'all', MARKDOWN_LATEST_COUNT),
        baseUrl: BASE_URL,
        locale: 'en',
        sampleData: SERVES_SAMPLE_DATA,
      }),
  };
  for (const [name, { path, ...metadata }] of Object.entries(resources))
    server.registerResource(name, `${BASE_URL}${path}`, metadata, async (uri) =>
      contents(uri, metadata.mimeType, await read[name as keyof typeof resources]()),
    );

  for (const { name, template, metadata } of templates) {
    const list = () => ({
      resources: PROVIDERS.map((provider) => ({
        uri: template.expand({ provider }),
        name: `${name}-${provider}`,
        title: metadata.title.replace('One provider’s', `${PROVIDER_LABELS.en[provider]}:`),
        mimeType: metadata.mimeType,
      })),
    });
    const resourceTemplate = new ResourceTemplate(template, { list, complete: { provider: completeProvider } });
    server.registerResource(name, resourceTemplate, metadata, async (uri, { provider }) => {
      // The adapter answers a URI naming no provider before this runs (isOfferedResource); MCP's own error otherwise.
      if (!isProvider(provider)) throw new McpError(-32002, 'Resource not found', { uri: uri.href });
      const body =
        name === 'provider-status' ? statusFromSummary(await summary(provider), now) : await timeline(provider);
      return contents(uri, metadata.mimeType, JSON.stringify(body));
    });
  }

  const prompt = { ...catalogue.MCP_PROMPTS['should-i-wait'], argsSchema: { provider: promptProvider } };
  server.registerPrompt('should-i-wait', prompt, ({ provider }) => {
    const text = catalogue.shouldIWaitText(provider, PROVIDER_LABELS.en[provider]);
    return { messages: [{ role: 'user', content: { type: 'text', text } }] };
  });
  return server;
}
