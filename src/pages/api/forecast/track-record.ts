import type { APIRoute } from 'astro';
import { prerenderedResponse } from '../../../build/prerendered.ts';

export const prerender = true;

/** GET /api/forecast/track-record depends only on the events: built here, served by functions/api/forecast.ts. */
export const GET: APIRoute = () => prerenderedResponse('/api/forecast/track-record');
