import { MEDIAN_BASIS_RESETS } from '../cadence.ts';
import { z } from 'zod';
import { ProviderFilterSchema } from '../api/query.ts';
import { EventKindSchema, ProviderSchema } from '../enums.ts';
import { ForecastSchema } from '../forecast/schemas.ts';
import { EventSchema, NextEstimateSchema, StatusResponseSchema, UtcTimestampSchema } from '../schemas.ts';
import { routeById } from '../routes/table.ts';
import { compactJsonSchema } from './json-schema.ts';
import { API_VERSION, SERVICE_MACHINE_NAME, SERVICE_NAME } from '../site.ts';

/**
 * What the MCP server offers, described once: the server (functions/mcp/server.ts) registers exactly these,
 * and the discovery document (/.well-known/mcp.json) lists them.
 */

export const MCP_SERVER_INFO = { name: SERVICE_MACHINE_NAME, title: SERVICE_NAME, version: API_VERSION } as const;

/** The favicon, as the site links it (src/layouts/Base.astro): one scalable icon for hosts that show servers. */
export const MCP_ICON_PATH = '/favicon.svg';

/** `serverInfo` as initialize answers it: the name and version, and what a host shows of the server. */
export const mcpServerInfo = (baseUrl: string) => ({
  ...MCP_SERVER_INFO,
  description: `Official usage-limit reset announcements of three AI coding-tool providers, with a status board and a cadence estimate (never a vendor schedule).`,
  websiteUrl: `${baseUrl}/`,
  icons: [{ src: `${baseUrl}${MCP_ICON_PATH}`, mimeType: 'image/svg+xml', sizes: ['any'] }],
});

export const MCP_INSTRUCTIONS = [
  `${SERVICE_NAME} publishes the official usage-limit reset announcements of three AI coding-tool providers`,
  '(provider_a, provider_b, provider_c), each linked to its original public post, and a board derived from them.',
  'get_status gives every provider’s status word, last reset, days since, statistics and nextEstimate;',
  'get_timeline lists recent announcements; get_next_estimate explains one provider’s estimate.',
  `nextEstimate is a cadence estimate (last reset + median gap of the last ${MEDIAN_BASIS_RESETS} resets), never a vendor schedule:`,
  'say so when you use it, and read a time in the past as "any time now". Keep each event’s sourceUrl when quoting.',
  'get_forecast gives one provider’s chance of a reset within 1, 3 and 7 days: the share of its recent gaps between',
  'resets, among those longer than the current wait, that ended within that time. It is a pattern in past gaps, not a vendor plan',
  'or a promise; quote it as such, with its sampleSize, and say there is no forecast when the probabilities are null.',
].join(' ');

export const TIMELINE_TOOL_LIMIT = { min: 1, max: 100, default: 20 } as const;

export const TimelineToolInput = {
  provider: ProviderFilterSchema.default('all').describe('one provider, or all three'),
  limit: z
    .int()
    .min(TIMELINE_TOOL_LIMIT.min)
    .max(TIMELINE_TOOL_LIMIT.max)
    .default(TIMELINE_TOOL_LIMIT.default)
    .describe('how many announcements, newest first'),
  kind: EventKindSchema.optional().describe('only announcements of this kind (reset, banked, boost, promo, tease)'),
};

export const TimelineToolOutput = z.strictObject({
  provider: ProviderFilterSchema,
  updatedAt: UtcTimestampSchema,
  events: z.array(
    EventSchema.extend({ pageUrl: z.url().describe('the permanent anchor {base_url}/<provider>#event-<id>') }),
  ),
});
export type TimelineToolResult = z.infer<typeof TimelineToolOutput>;

export const NextEstimateToolInput = { provider: ProviderSchema.describe('the provider to estimate') };

/** What tools/list says of each tool's result (the registration below takes the same schemas as shapes). */
const TOOL_OUTPUTS = {
  get_status: StatusResponseSchema,
  get_timeline: TimelineToolOutput,
  get_next_estimate: NextEstimateSchema,
  get_forecast: ForecastSchema,
} as const;
export const ForecastToolInput = { provider: ProviderSchema.describe('the provider to forecast') };
const TOOL_INPUTS = {
  get_status: {},
  get_timeline: TimelineToolInput,
  get_next_estimate: NextEstimateToolInput,
  get_forecast: ForecastToolInput,
};

/** Output schemas are given as shapes: MCP wants `type: object` at the top, where a named schema would be a `$ref`. */
export const MCP_TOOLS = {
  get_status: {
    title: 'Board status',
    description:
      'The full status board, the same as GET /api/status: per provider the status word, last reset, days since, nextEstimate (a cadence estimate, not a schedule) and statistics.',
    outputSchema: StatusResponseSchema.shape,
  },
  get_timeline: {
    title: 'Recent announcements',
    description:
      'Recent official announcements, newest first, each with pageUrl (its permanent page) and sourceUrl (the original post).',
    outputSchema: TimelineToolOutput.shape,
  },
  get_next_estimate: {
    title: 'Next reset estimate',
    description:
      'For one provider: the last reset, days since it, nextEstimate, the median gap and how many gaps it rests on, and a note that it is only an estimate.',
    outputSchema: NextEstimateSchema.shape,
  },
  get_forecast: {
    title: 'Chance of a reset soon',
    description: [
      'For one provider, the same object as its entry of GET /api/forecast: probabilities["1d"], ["3d"] and ["7d"] are',
      'the share of its last 20 gaps between resets (sampleSize: how many there are) that lasted longer than the current',
      'wait (elapsedDays) and ended within 1, 3 or 7 more days; likelyWindow spans the 25th to 75th percentile of those gaps.',
      'It is a pattern in past gaps, not a vendor plan, a schedule or a promise: with few gaps left longer than the wait,',
      'a 0 or 1 rests on one or two past waits. The probabilities are null when fewer than 5 gaps are recorded',
      '(basis "insufficient"), when the wait is already longer than every gap on record ("beyond_history"), when a',
      'reset is announced or teased for a later time ("announced", "teased": see announcedFor), or without data ("no_data").',
    ].join(' '),
    outputSchema: ForecastSchema.shape,
  },
} as const;

export const READ_ONLY_TOOL = { readOnlyHint: true, openWorldHint: false } as const;

/**
 * tools/list as the server answers it: every schema self-contained (enums inline, no `$ref`) and compact
 * (src/core/mcp/json-schema.ts). The SDK's own listing nests named schemas behind `$ref` and `allOf`.
 */
export const mcpToolList = () =>
  Object.entries(MCP_TOOLS).map(([name, tool]) => ({
    name,
    title: tool.title,
    description: tool.description,
    inputSchema: compactJsonSchema(z.object(TOOL_INPUTS[name as keyof typeof MCP_TOOLS]), 'input', true),
    outputSchema: compactJsonSchema(TOOL_OUTPUTS[name as keyof typeof MCP_TOOLS], 'output', false),
    annotations: READ_ONLY_TOOL,
  }));

/** A stateless server's lists never change under a client: no `listChanged`, no `subscribe`. */
export const MCP_CAPABILITIES = { tools: {}, resources: {}, prompts: {}, completions: {} } as const;

export const MCP_RESOURCES = {
  board: {
    path: '/api/status',
    title: 'The board (JSON)',
    description:
      'Every provider’s status word, last reset, days since, statistics and nextEstimate (a cadence estimate, not a schedule), as GET /api/status.',
    mimeType: 'application/json',
  },
  timeline: {
    path: '/api/timeline',
    title: 'The timeline of announcements (JSON)',
    description: 'The latest 200 official announcements of all providers, newest first, each with its sourceUrl.',
    mimeType: 'application/json',
  },
  'board-markdown': {
    path: '/index.md',
    title: 'The board (Markdown)',
    description: 'The board, the latest announcements and the endpoints as a Markdown page, as GET /index.md.',
    mimeType: 'text/markdown',
  },
} as const;

/**
 * One provider's slice of a resource (RFC 6570 templates under the base URL): `resources/templates/list` names
 * them, `resources/list` lists their expansions and `completion/complete` offers the provider ids.
 */
export const MCP_RESOURCE_TEMPLATES = {
  'provider-status': {
    uriTemplate: '/api/status/{provider}',
    title: 'One provider’s status (JSON)',
    description: 'One provider’s board entry, as GET /api/status/{provider}.',
    mimeType: 'application/json',
  },
  'provider-timeline': {
    uriTemplate: '/api/timeline{?provider}',
    title: 'One provider’s announcements (JSON)',
    description:
      'The latest 200 official announcements of one provider, newest first, as GET /api/timeline?provider=….',
    mimeType: 'application/json',
  },
} as const;

export const MCP_PROMPTS = {
  'should-i-wait': {
    title: 'Should I wait for a reset?',
    description:
      'Answer honestly whether waiting for a provider’s usage-limit reset makes sense, from the board’s facts.',
  },
} as const;

/** MCP's address and its alias, as the route table names them. */
export const MCP_PATHS = [routeById('postMcp').path, routeById('postMcpAlias').path] as const;

/** `/.well-known/mcp.json`: a server card (the MCP server-card draft), so a client can learn the server without connecting. */
export const buildMcpServerCard = (baseUrl: string) => ({
  ...mcpServerInfo(baseUrl),
  description: MCP_INSTRUCTIONS,
  transport: {
    type: 'streamable-http',
    url: `${baseUrl}${MCP_PATHS[0]}`,
    alternateUrls: [`${baseUrl}${MCP_PATHS[1]}`],
  },
  authentication: { required: false },
  rateLimit: { requestsPerMinutePerIp: 60 },
  capabilities: MCP_CAPABILITIES,
  tools: Object.entries(MCP_TOOLS).map(([name, tool]) => ({ name, title: tool.title, description: tool.description })),
  resources: Object.entries(MCP_RESOURCES).map(([name, resource]) => ({
    name,
    uri: `${baseUrl}${resource.path}`,
    title: resource.title,
    description: resource.description,
    mimeType: resource.mimeType,
  })),
  resourceTemplates: Object.entries(MCP_RESOURCE_TEMPLATES).map(([name, template]) => ({
    name,
    ...template,
    uriTemplate: `${baseUrl}${template.uriTemplate}`,
  })),
  prompts: Object.entries(MCP_PROMPTS).map(([name, prompt]) => ({ name, ...prompt })),
});
