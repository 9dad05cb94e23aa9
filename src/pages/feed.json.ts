import type { APIRoute } from 'astro';
import { renderFeed } from '../build/feed.ts';

export const prerender = true;

/** All three providers; functions/api/feeds.ts answers ?provider= at the edge. */
export const GET: APIRoute = () => renderFeed('json');
