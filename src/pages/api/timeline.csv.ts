import type { APIRoute } from 'astro';
import { prerenderedResponse } from '../../build/prerendered.ts';

export const prerender = true;

/** The unfiltered default of GET /api/timeline.csv; functions/api/timeline.ts answers every other query. */
export const GET: APIRoute = () => prerenderedResponse('/api/timeline.csv');
