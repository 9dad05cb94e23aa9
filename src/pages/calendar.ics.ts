import type { APIRoute } from 'astro';
import { prerenderedResponse } from '../build/prerendered.ts';

export const prerender = true;

/** Every provider, with the estimates as of the build; functions/api/calendars.ts answers ?provider=. */
export const GET: APIRoute = () => prerenderedResponse('/calendar.ics');
