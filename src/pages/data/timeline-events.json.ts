import type { APIRoute } from 'astro';
import { DATASET_SLICES } from '../../core/dataset.ts';
import { prerenderedResponse } from '../../build/prerendered.ts';

export const prerender = true;

/** The default timeline's slice of the edge data set (src/core/dataset.ts), validated once and stamped. */
export const GET: APIRoute = () => prerenderedResponse(DATASET_SLICES.timeline.path);
