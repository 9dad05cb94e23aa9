import { z } from 'zod';
import { ProviderFilterSchema } from '../api/query.ts';
import { MEDIAN_BASIS_RESETS } from '../cadence.ts';
import { EventKindSchema, ProviderSchema } from '../enums.ts';
import { ForecastSchema } from '../forecast/schemas.ts';
import { type ContentTypeName, mediaTypeOf } from '../routes/policy.ts';
import { type RouteId, routeById } from '../routes/table.ts';
import { SAMPLE_DATA_NOTICE } from '../sample-data.ts';
import { EventSchema, NextEstimateSchema, StatusResponseSchema, TimelineResponseSchema } from '../schemas.ts';
import { API_VERSION, SERVICE_MACHINE_NAME, SERVICE_NAME } from '../site.ts';

/**
 * What the MCP server offers, described once: the server (functions/mcp/server.ts) registers exactly these, and
 * the server card (/.well-known/mcp.json) lists them. Tool schemas are the core's zod schemas; a resource is one of
 * the route table's GET routes, described by its entry.
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

/**
 * How to speak of the estimate and the forecast: said in the instructions, and again in the prompt. One answer to
 * "when" (decisions.md, "One honest answer"): a passed cadence estimate is only that, never "any time now"; the
 * forecast's likely window and chances say when.
 */
const HOW_TO_QUOTE = [
  `nextEstimate is a cadence estimate (last reset + median gap of the last ${MEDIAN_BASIS_RESETS} resets), not a vendor`,
  'schedule: say so when you use it. A nextEstimate in the past means only that the cadence estimate has passed: say',
  '"passed" with its date, never "any time now", "due" or "late". For when a reset may come, use get_forecast: the',
  'time the vendor named (announcedFor) when a reset is announced or teased, else its likelyWindow and its chances of',
  'a reset within 1, 3 and 7 days, a pattern in past gaps, not a vendor plan or a promise; quote them as such, with',
  'their sampleSize, and say there is no forecast when they are null. Keep sourceUrl.',
].join(' ');
export const MCP_INSTRUCTIONS = [
  `${SERVICE_NAME} publishes the official usage-limit reset announcements of three AI coding-tool providers, each`,
  `linked to its original public post (sourceUrl), and a board derived from them. ${HOW_TO_QUOTE}`,
].join(' ');

/**
 * While the data is the fictional sample set (src/core/sample-data.ts), the site's own notice, in the words every
 * page shows: `initialize`'s instructions open with it, and every tool result carries it as a second text block
 * (decisions.md, "One honest answer"). With real data it is said nowhere.
 */
export const MCP_SAMPLE_DATA_NOTICE = SAMPLE_DATA_NOTICE.en;
export const mcpInstructions = (sampleData: boolean): string =>
  sampleData ? `${MCP_SAMPLE_DATA_NOTICE} ${MCP_INSTRUCTIONS}` : MCP_INSTRUCTIONS;

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;
/** A tool that answers what a GET route answers says so, in the route's own words. */
const sameAs = (id: RouteId) => `${routeById(id).summary}: the same as GET ${routeById(id).path}`;
/** A tool's one required argument: a fresh enum of the core's values, listed inline (one with an id: a `$ref`). */
const oneProvider = (what: string) => z.object({ provider: z.enum(ProviderSchema.options).describe(what) });

/**
 * Each tool as registerTool takes it, read-only: the arguments and the result as the core's zod schemas, a result
 * as its shape, which the SDK lists as an object of its own (MCP asks for `type: "object"`; the core's schemas
 * carry ids, for OpenAPI, and one with an id would be listed as a bare `$ref`).
 */
const readOnly = <Tool extends object>(tool: Tool) => ({ ...tool, annotations: READ_ONLY });
export const MCP_TOOLS = {
  get_status: readOnly({
    title: 'Board status',
    description: `${sameAs('getStatus')}. nextEstimate is a cadence estimate, not a schedule.`,
    inputSchema: z.object({}),
    outputSchema: StatusResponseSchema.shape,
  }),
  get_timeline: readOnly({
    title: 'Recent announcements',
    description: `${sameAs('getTimeline')}, each with pageUrl (its permanent page) and sourceUrl (the original post).`,
    inputSchema: z.object({
      provider: z.enum(ProviderFilterSchema.options).default('all').describe('one provider, or all three'),
      limit: z.int().min(1).max(100).default(20).describe('how many announcements, newest first'),
      kind: z.enum(EventKindSchema.options).optional().describe('only announcements of this kind'),
    }),
    outputSchema: TimelineResponseSchema.extend({
      events: z.array(EventSchema.extend({ pageUrl: z.url().describe('the permanent anchor of the event') })),
    }),
  }),
  get_next_estimate: readOnly({
    title: 'Next reset estimate',
    description:
      'For one provider: the last reset, days since it, nextEstimate, the median gap and how many gaps it rests on, and a note that it is only an estimate.',
    inputSchema: oneProvider('the provider to estimate'),
    outputSchema: NextEstimateSchema.shape,
  }),
  get_forecast: readOnly({
    title: 'Chance of a reset soon',
    description: `For one provider, its entry of GET ${routeById('getForecast').path}, each field saying what it is: a pattern in past gaps, not a vendor plan, a schedule or a promise. No probabilities with fewer than 5 gaps, beyond every gap on record, when a reset is announced or teased for later; a 0 or 1 late in a long wait rests on one or two gaps.`,
    inputSchema: oneProvider('the provider to forecast'),
    outputSchema: ForecastSchema.shape,
  }),
} as const;

/** What initialize claims (the SDK's own: it claims `listChanged` for each list it serves), for the server card. */
const LISTS = { listChanged: true } as const;
export const MCP_CAPABILITIES = { tools: LISTS, resources: LISTS, prompts: LISTS, completions: {} } as const;

/** Each resource is a GET route of the table, read at its path (and `query`), described by the route's summary. */
const resource = (id: RouteId, title: string, query = '') => {
  const { path, summary, ok } = routeById(id);
  const mimeType = mediaTypeOf(Object.keys(ok.content)[0] as ContentTypeName);
  return { uri: `${path}${query}`, title, description: summary, mimeType };
};
export const MCP_RESOURCES = {
  board: resource('getStatus', 'The board (JSON)'),
  timeline: resource('getTimeline', 'The latest 200 announcements (JSON)'),
  'board-markdown': resource('getMarkdownEn', 'The board (Markdown)'),
} as const;
/** One provider's slice of a resource: RFC 6570 templates under the base URL, `{provider}` completed. */
export const MCP_RESOURCE_TEMPLATES = {
  'provider-status': resource('getProviderStatus', 'One provider’s status (JSON)'),
  'provider-timeline': resource('getTimeline', 'One provider’s latest 200 announcements (JSON)', '{?provider}'),
} as const;

/** The prompt `should-i-wait`, its text for one provider (`label`: its name as people read it). */
export const SHOULD_I_WAIT = {
  title: 'Should I wait for a reset?',
  description: 'Whether to wait for a provider’s usage-limit reset, answered honestly from the board’s facts.',
  text: (provider: string, label: string): string =>
    [
      `I have hit my usage limit on ${label} (${provider}). Should I wait for a reset? Call get_status, and`,
      `get_next_estimate and get_forecast with provider "${provider}", then answer from those facts only: the last`,
      'reset and how long ago it was, the status word, the estimate and the forecast with the gaps each rests on. If',
      'the history is too short, say so instead of guessing. Link the original post of the last reset.',
      HOW_TO_QUOTE,
    ].join(' '),
};

/** The card's list of resources or templates, each with its URI (or template) under the base URL. */
const listed = (baseUrl: string, entries: Record<string, ReturnType<typeof resource>>, key: 'uri' | 'uriTemplate') =>
  Object.entries(entries).map(([name, { uri, ...rest }]) => ({ name, [key]: `${baseUrl}${uri}`, ...rest }));
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
  resources: listed(baseUrl, MCP_RESOURCES, 'uri'),
  resourceTemplates: listed(baseUrl, MCP_RESOURCE_TEMPLATES, 'uriTemplate'),
  prompts: [{ name: 'should-i-wait', title: SHOULD_I_WAIT.title, description: SHOULD_I_WAIT.description }],
});
