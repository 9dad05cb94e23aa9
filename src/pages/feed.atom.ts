import type { APIRoute } from 'astro';
import { prerenderedResponse } from '../build/prerendered.ts';

export const prerender = true;

/** All three providers; functions/api/feeds.ts answers ?provider= at the edge. */
export const GET: APIRoute = () => prerenderedResponse('/feed.atom');
