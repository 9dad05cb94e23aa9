import { z } from 'zod';
import { ProviderFilterSchema } from '../api/query.ts';
import { MEDIAN_BASIS_RESETS } from '../cadence.ts';
import { EventKindSchema, ProviderSchema } from '../enums.ts';
import { ForecastSchema } from '../forecast/schemas.ts';
import { routeById } from '../routes/table.ts';
import { EventSchema, NextEstimateSchema, StatusResponseSchema, UtcTimestampSchema } from '../schemas.ts';
import { API_VERSION, SERVICE_MACHINE_NAME, SERVICE_NAME } from '../site.ts';

/**
 * What the MCP server offers, described once: the server (functions/mcp/server.ts) registers exactly these, and
 * the server card (/.well-known/mcp.json) lists them. Tool schemas are the core's zod schemas.
 */

/** `serverInfo`: the name and version, and what a host shows of the server (the site's favicon as its icon). */
export const mcpServerInfo = (baseUrl: string) => ({
  name: SERVICE_MACHINE_NAME,
  title: SERVICE_NAME,
  version: API_VERSION,
  description: `Official usage-limit reset announcements of three AI coding-tool providers, with a status board and a cadence estimate (never a vendor schedule).`,
  websiteUrl: `${baseUrl}/`,
  icons: [{ src: `${baseUrl}/favicon.svg`, mimeType: 'image/svg+xml', sizes: ['any'] }],
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

const TimelineToolOutput = z.strictObject({
  provider: ProviderFilterSchema,
  updatedAt: UtcTimestampSchema,
  events: z.array(
    EventSchema.extend({ pageUrl: z.url().describe('the permanent anchor {base_url}/<provider>#event-<id>') }),
  ),
});
const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

/**
 * Each tool as registerTool takes it: the arguments as a zod shape, the result as the core's zod schema. An
 * argument's enum is a fresh one of the core's values: a schema with an id would be a `$ref` in tools/list, which
 * hosts that resolve no references cannot read.
 */
export const MCP_TOOLS = {
  get_status: {
    title: 'Board status',
    description:
      'The full status board, the same as GET /api/status: per provider the status word, last reset, days since, nextEstimate (a cadence estimate, not a schedule) and statistics.',
    inputSchema: {},
    outputSchema: StatusResponseSchema,
    annotations: READ_ONLY,
  },
  get_timeline: {
    title: 'Recent announcements',
    description:
      'Recent official announcements, newest first, each with pageUrl (its permanent page) and sourceUrl (the original post).',
    inputSchema: {
      provider: z.enum(ProviderFilterSchema.options).default('all').describe('one provider, or all three'),
      limit: z.int().min(1).max(100).default(20).describe('how many announcements, newest first'),
      kind: z
        .enum(EventKindSchema.options)
        .optional()
        .describe('only announcements of this kind (reset, banked, boost, promo, tease)'),
    },
    outputSchema: TimelineToolOutput,
    annotations: READ_ONLY,
  },
  get_next_estimate: {
    title: 'Next reset estimate',
    description:
      'For one provider: the last reset, days since it, nextEstimate, the median gap and how many gaps it rests on, and a note that it is only an estimate.',
    inputSchema: { provider: z.enum(ProviderSchema.options).describe('the provider to estimate') },
    outputSchema: NextEstimateSchema,
    annotations: READ_ONLY,
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
    inputSchema: { provider: z.enum(ProviderSchema.options).describe('the provider to forecast') },
    outputSchema: ForecastSchema,
    annotations: READ_ONLY,
  },
} as const;

/** Stateless: no list ever changes under a client, so no `listChanged` and no `subscribe`. */
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

/** One provider's slice of a resource: RFC 6570 templates under the base URL, `{provider}` completed. */
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

/** The text of the `should-i-wait` prompt for one provider (`label`: its name as people read it). */
export const shouldIWaitText = (provider: string, label: string): string =>
  [
    `I have hit my usage limit on ${label} (${provider}). Should I wait for a reset?`,
    `Call get_next_estimate with provider "${provider}" and get_status, then answer from those facts only:`,
    'the last reset and how long ago it was, the current status word, and the cadence estimate with the number of gaps it rests on.',
    'Say plainly that the estimate is not a vendor schedule and that no reset is promised; an estimate in the past means "any time now", not "late".',
    'If the history is too short for an estimate, say so instead of guessing. Link the original post of the last reset (sourceUrl).',
    `get_forecast with provider "${provider}" adds the chance of a reset within 1, 3 and 7 days: quote it as a pattern in past gaps, not a vendor plan, with the number of gaps it rests on.`,
  ].join(' ');

/** `/.well-known/mcp.json`: a server card (the MCP server-card draft), to learn the server without connecting. */
export const buildMcpServerCard = (baseUrl: string) => ({
  ...mcpServerInfo(baseUrl),
  description: MCP_INSTRUCTIONS,
  transport: {
    type: 'streamable-http',
    url: `${baseUrl}${routeById('postMcp').path}`,
    alternateUrls: [`${baseUrl}${routeById('postMcpAlias').path}`],
  },
  authentication: { required: false },
  rateLimit: { requestsPerMinutePerIp: 60 },
  capabilities: MCP_CAPABILITIES,
  tools: Object.entries(MCP_TOOLS).map(([name, { title, description }]) => ({ name, title, description })),
  resources: Object.entries(MCP_RESOURCES).map(([name, { path, ...resource }]) => ({
    name,
    uri: `${baseUrl}${path}`,
    ...resource,
  })),
  resourceTemplates: Object.entries(MCP_RESOURCE_TEMPLATES).map(([name, template]) => ({
    name,
    ...template,
    uriTemplate: `${baseUrl}${template.uriTemplate}`,
  })),
  prompts: Object.entries(MCP_PROMPTS).map(([name, prompt]) => ({ name, ...prompt })),
});
