import type { APIRoute } from 'astro';
import { buildEdgeDataset } from '../../core/dataset.ts';
import { buildTimeEvents } from '../../build/dataset.ts';

export const prerender = true;

/** The edge data set (functions/data-source.ts): per provider, its summary and newest events. */
export const GET: APIRoute = async () => {
  const { events, builtAt } = await buildTimeEvents();
  return Response.json(buildEdgeDataset(events, new Date(builtAt)));
};
