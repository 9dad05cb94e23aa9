import type { APIRoute } from 'astro';
import { EDGE_SUMMARIES_PATH } from '../../core/dataset.ts';
import { prerenderedResponse } from '../../build/prerendered.ts';

export const prerender = true;

/** The edge data set's summaries alone (src/core/dataset.ts), validated once and stamped; read by the status. */
export const GET: APIRoute = () => prerenderedResponse(EDGE_SUMMARIES_PATH);
