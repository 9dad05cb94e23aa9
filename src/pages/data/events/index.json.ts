import type { APIRoute } from 'astro';
import { historyIndex } from '../../../core/dataset.ts';
import { buildTimeEvents } from '../../../build/dataset.ts';

export const prerender = true;

/** Where the whole history is: one file per provider and year. */
export const GET: APIRoute = async () => Response.json(historyIndex(await buildTimeEvents()));
