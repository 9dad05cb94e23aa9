import type { z } from 'zod';
import { buildTimelineResponse, newestEventsRead } from '../../src/core/api/timeline.ts';
import { boardFromSummaries, estimateFromSummary } from '../../src/core/board.ts';
import { forecastFromSummary, roundTo3 } from '../../src/core/forecast/rule.ts';
import { MCP_SAMPLE_DATA_NOTICE, type MCP_TOOLS } from '../../src/core/mcp/catalogue.ts';
import { eventPageUrl } from '../../src/core/site.ts';
import { BASE_URL } from '../../src/server/base-url.ts';
import type { EdgeContext } from '../../src/server/context.ts';

/**
 * What each tool answers, the one copy: the SDK's server registers these (server.ts), and the common requests'
 * path calls them directly (common-requests.ts), so both give the same result for the same arguments.
 */

export type ToolName = keyof typeof MCP_TOOLS;
export type ToolArguments<Name extends ToolName> = z.output<(typeof MCP_TOOLS)[Name]['inputSchema']>;
export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent: Record<string, unknown>;
  _meta?: { sampleData: true };
}
/** What the tools and resources read: the request's time and the board's data files (journal folded in). */
export type McpContext = Pick<EdgeContext, 'now' | 'summaries' | 'dataset'>;
export type ToolAnswers = { [Name in ToolName]: (args: ToolArguments<Name>) => Promise<ToolResult> };

/** Numbers to three decimals (a day to the minute and a half), in the text block and structuredContent alike. */
const toolResult = (value: object): ToolResult => {
  const text = JSON.stringify(value, (_, inner: unknown) => (typeof inner === 'number' ? roundTo3(inner) : inner));
  return { content: [{ type: 'text', text }], structuredContent: JSON.parse(text) as Record<string, unknown> };
};
/**
 * A result over the fictional sample set says so (decisions.md, "One honest answer"): the notice as a second text
 * block, after the JSON that stays the first, and `_meta.sampleData` (MCP's field for what a result says of itself).
 */
const sampleDataResult = ({ content, structuredContent }: ToolResult): ToolResult => ({
  content: [...content, { type: 'text', text: MCP_SAMPLE_DATA_NOTICE }],
  structuredContent,
  _meta: { sampleData: true },
});

/** The tools over the board at the request's time. `sampleData`: whether the data is the fictional sample set. */
export function toolAnswers(context: McpContext, sampleData: boolean): ToolAnswers {
  const { now } = context;
  const result = (value: object) => (sampleData ? sampleDataResult(toolResult(value)) : toolResult(value));
  // As the HTTP routes: the summaries file for the status, the estimate and the forecast; the events for lists.
  const summary = async (provider: ToolArguments<'get_forecast'>['provider']) => (await context.summaries())[provider];
  return {
    get_status: async () => result(boardFromSummaries(await context.summaries(), now)),
    get_timeline: async ({ provider, limit, kind }) => {
      const selection = { provider, limit, ...(kind === undefined ? {} : { kind }) };
      const dataset = await context.dataset(newestEventsRead(selection));
      const { events, ...timeline } = buildTimelineResponse(dataset, selection, now);
      return result({
        ...timeline,
        events: events.map((event) => ({ ...event, pageUrl: eventPageUrl(BASE_URL, event) })),
      });
    },
    get_next_estimate: async ({ provider }) => result(estimateFromSummary(await summary(provider), now)),
    get_forecast: async ({ provider }) => result(forecastFromSummary(await summary(provider), now)),
  };
}
