import type { APIRoute } from 'astro';
import { watchConfigFile } from '../../build/watch-config.ts';

export const prerender = true;

/** The watch configuration the worker's minute cron polls with (docs/watch.md), stamped. */
export const GET: APIRoute = async () => new Response(await watchConfigFile());
