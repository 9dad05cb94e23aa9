import type { APIRoute } from 'astro';
import { buildTimeDataset } from '../../build/dataset.ts';

export const prerender = true;

/** The data set the edge reads (functions/data-source.ts). */
export const GET: APIRoute = async () => Response.json(await buildTimeDataset());
