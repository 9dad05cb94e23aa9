import { parseQuery, TIMELINE_LIMIT, TimelineCsvQuerySchema, TimelineQuerySchema } from '../../src/core/api/query.ts';
import { buildTimelineResponse, type TimelineSelection } from '../../src/core/api/timeline.ts';
import { recentEvents } from '../../src/core/dataset.ts';
import { renderTimelineCsv, timelineCsvFileName } from '../../src/core/render/timeline-csv.ts';
import type { EdgeContext } from '../context.ts';
import { conditionalJson } from '../http/conditional.ts';
import { CACHE, CONTENT_TYPE, invalidQuery, textResponse, withHeaders } from '../http/responses.ts';
import { BASE_URL } from '../site.ts';

/** The unfiltered default is a prerendered file; any other selection is computed here. */
const isPrerendered = ({ provider, limit }: TimelineSelection) =>
  provider === 'all' && limit === TIMELINE_LIMIT.default;

const csvHeaders = (selection: TimelineSelection) => ({
  'Content-Type': CONTENT_TYPE.csv,
  'Cache-Control': CACHE.api,
  'Content-Disposition': `inline; filename=${timelineCsvFileName(selection.provider)}`,
});

async function answerCsv(context: EdgeContext, selection: TimelineSelection): Promise<Response> {
  if (isPrerendered(selection)) return withHeaders(await context.asset('/api/timeline.csv'), csvHeaders(selection));
  const events = recentEvents(await context.dataset(), selection.provider, selection.limit);
  return textResponse(renderTimelineCsv(events, BASE_URL), CONTENT_TYPE.csv, CACHE.api, csvHeaders(selection));
}

/** GET /api/timeline (spec 4.2). */
export async function handleTimeline(context: EdgeContext): Promise<Response> {
  const query = parseQuery(TimelineQuerySchema, context.url.searchParams);
  if (!query.ok) return invalidQuery(query.issues);
  const { format, ...selection } = query.value;
  if (format === 'csv') return answerCsv(context, selection);
  if (isPrerendered(selection)) {
    return withHeaders(await context.asset('/api/timeline'), {
      'Content-Type': CONTENT_TYPE.json,
      'Cache-Control': CACHE.api,
    });
  }
  return conditionalJson(
    context.request,
    buildTimelineResponse(await context.dataset(), selection, context.now),
    CACHE.api,
  );
}

/** GET /api/timeline.csv (spec 4.3). */
export async function handleTimelineCsv(context: EdgeContext): Promise<Response> {
  const query = parseQuery(TimelineCsvQuerySchema, context.url.searchParams);
  return query.ok ? answerCsv(context, query.value) : invalidQuery(query.issues);
}
