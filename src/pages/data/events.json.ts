import type { APIRoute } from 'astro';
import { buildTimeEvents } from '../../build/dataset.ts';

export const prerender = true;

/** Every published event, newest first: the whole history, for people and scripts (the edge reads board.json). */
export const GET: APIRoute = async () => Response.json(await buildTimeEvents());
