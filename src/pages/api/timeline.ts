import type { APIRoute } from 'astro';
import { TIMELINE_LIMIT } from '../../core/api/query.ts';
import { buildTimelineResponse } from '../../core/api/timeline.ts';
import { buildEdgeDataset } from '../../core/dataset.ts';
import { buildTimeEvents } from '../../build/dataset.ts';

export const prerender = true;

/** The unfiltered default of GET /api/timeline; functions/api/timeline.ts answers every other query. */
export const GET: APIRoute = async () => {
  const { events, builtAt } = await buildTimeEvents();
  const selection = { provider: 'all', limit: TIMELINE_LIMIT.default } as const;
  return Response.json(
    buildTimelineResponse(buildEdgeDataset(events, new Date(builtAt)), selection, new Date(builtAt)),
  );
};
