import type { APIRoute } from 'astro';
import { TIMELINE_LIMIT } from '../../core/api/query.ts';
import { selectTimelineEvents } from '../../core/api/timeline.ts';
import { renderTimelineCsv } from '../../core/render/timeline-csv.ts';
import { buildTimeDataset } from '../../build/dataset.ts';
import { BASE_URL } from '../../../functions/site.ts';

export const prerender = true;

/** The unfiltered default of GET /api/timeline.csv; functions/api/timeline.ts answers every other query. */
export const GET: APIRoute = async () => {
  const { events } = await buildTimeDataset();
  const selected = selectTimelineEvents(events, { provider: 'all', limit: TIMELINE_LIMIT.default });
  return new Response(renderTimelineCsv(selected, BASE_URL));
};
