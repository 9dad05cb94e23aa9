import { type ProviderFilter, TIMELINE_LIMIT } from '../../src/core/api/query.ts';
import { buildTimelineResponse, newestEventsRead, type TimelineSelection } from '../../src/core/api/timeline.ts';
import { recentEvents } from '../../src/core/dataset.ts';
import { journalBuiltAt } from '../../src/core/journal/built-outputs.ts';
import { CONTENT_TYPES } from '../../src/core/routes/policy.ts';
import { routeById } from '../../src/core/routes/table.ts';
import { SERVICE_MACHINE_NAME } from '../../src/core/site.ts';
import { BASE_URL } from '../../src/server/base-url.ts';
import type { EdgeContext } from '../../src/server/context.ts';
import { conditionalJson } from '../../src/server/http/conditional.ts';
import { textResponse, withHeaders } from '../../src/server/http/responses.ts';
import type { EdgeHandlers } from '../route-handler.ts';

/**
 * The unfiltered default is a prerendered file (written here while the journal holds an event); any other selection
 * is computed here.
 */
const isDefault = ({ provider, limit }: TimelineSelection) => provider === 'all' && limit === TIMELINE_LIMIT.default;
const TIMELINE_FILE = routeById('getTimeline').prerendered!;
const TIMELINE_CSV_FILE = routeById('getTimelineCsv').prerendered!;

/**
 * The CSV's renderer and papaparse under it, loaded by the first CSV request of an isolate: the start need not
 * compile a library only this route uses (docs/performance.md, "The cold start").
 */
const csvRenderer = () => import('../../src/core/render/timeline-csv.ts');

/** The CSV's file name, here and not beside its renderer: the built default answers without loading papaparse. */
const csvFileName = (provider: ProviderFilter): string => `${SERVICE_MACHINE_NAME}-timeline-${provider}.csv`;

const DEFAULT_SELECTION = { provider: 'all', limit: TIMELINE_LIMIT.default } as const;

/**
 * The default selection's JSON as the build writes it, from the default timeline's slice of the data set (each
 * provider's 200 newest, `DATASET_SLICES.timeline`) with the journal folded in: its
 * `updatedAt` is the time of a build holding the journal's events (`journalBuiltAt`, docs/watch.md), which for an
 * empty journal is the build's own, so that the built file's bytes are what this writes then (its test).
 */
export async function defaultTimelineJson(context: Pick<EdgeContext, 'datasetSlice' | 'journalEntries'>) {
  const [dataset, journal] = await Promise.all([context.datasetSlice('timeline'), context.journalEntries()]);
  const builtAt = journalBuiltAt(dataset.builtAt, journal, undefined) ?? dataset.builtAt;
  return buildTimelineResponse(dataset, DEFAULT_SELECTION, new Date(builtAt));
}

/** The default selection's CSV as the build writes it (no time in it), from the data set with the journal. */
export const defaultTimelineCsv = async (context: Pick<EdgeContext, 'datasetSlice'>): Promise<string> =>
  (await csvRenderer()).renderTimelineCsv(
    recentEvents(await context.datasetSlice('timeline'), DEFAULT_SELECTION.provider, DEFAULT_SELECTION.limit),
    BASE_URL,
  );

/** Whether the default is the built file: the journal holds no event, so the build's bytes are the answer. */
const builtDefault = async (context: EdgeContext) => (await context.journalEntries()).length === 0;

async function answerCsv(context: EdgeContext, selection: TimelineSelection): Promise<Response> {
  const headers = {
    'Content-Type': CONTENT_TYPES.csv,
    'Content-Disposition': `inline; filename=${csvFileName(selection.provider)}`,
  };
  if (isDefault(selection)) {
    if (await builtDefault(context)) return withHeaders(await context.asset(TIMELINE_CSV_FILE), headers);
    return textResponse(await defaultTimelineCsv(context), CONTENT_TYPES.csv, headers);
  }
  const events = recentEvents(await context.dataset(newestEventsRead(selection)), selection.provider, selection.limit);
  return textResponse((await csvRenderer()).renderTimelineCsv(events, BASE_URL), CONTENT_TYPES.csv, headers);
}

export const TIMELINE_HANDLERS = {
  /** GET /api/timeline (spec 4.2). */
  getTimeline: async (context, { query: { format, ...selection } }) => {
    if (format === 'csv') return answerCsv(context, selection);
    if (isDefault(selection)) {
      if (await builtDefault(context))
        return withHeaders(await context.asset(TIMELINE_FILE), { 'Content-Type': CONTENT_TYPES.json });
      return conditionalJson(context.request, await defaultTimelineJson(context));
    }
    const dataset = await context.dataset(newestEventsRead(selection));
    return conditionalJson(context.request, buildTimelineResponse(dataset, selection, context.now));
  },
  /** GET /api/timeline.csv (spec 4.3). */
  getTimelineCsv: (context, { query }) => answerCsv(context, query),
} satisfies Partial<EdgeHandlers>;
