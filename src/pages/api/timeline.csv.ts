import type { APIRoute } from 'astro';
import { TIMELINE_LIMIT } from '../../core/api/query.ts';
import { renderTimelineCsv } from '../../core/render/timeline-csv.ts';
import { buildTimeEvents } from '../../build/dataset.ts';
import { BASE_URL } from '../../server/base-url.ts';

export const prerender = true;

/** The unfiltered default of GET /api/timeline.csv; functions/api/timeline.ts answers every other query. */
export const GET: APIRoute = async () => {
  const { events } = await buildTimeEvents();
  return new Response(renderTimelineCsv(events.slice(0, TIMELINE_LIMIT.default), BASE_URL));
};
