import type { APIRoute } from 'astro';
import { prerenderedResponse } from '../../build/prerendered.ts';

export const prerender = true;

/** The edge data set (src/server/data-source.ts), validated once and stamped; the worker trusts the stamp. */
export const GET: APIRoute = () => prerenderedResponse('/data/board.json');
