import type { APIRoute } from 'astro';
import { BOARD_PAGE_DATASET_PATH } from '../../core/dataset.ts';
import { prerenderedResponse } from '../../build/prerendered.ts';

export const prerender = true;

/** The board page's slice of the edge data set (src/core/dataset.ts), validated once and stamped. */
export const GET: APIRoute = () => prerenderedResponse(BOARD_PAGE_DATASET_PATH);
