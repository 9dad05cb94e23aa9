import type { APIRoute, GetStaticPaths } from 'astro';
import { providerCalendarPath } from '../../core/built-paths.ts';
import { PROVIDERS, type Provider } from '../../core/vocabulary.ts';
import { prerenderedResponse } from '../../build/prerendered.ts';

export const prerender = true;

export const getStaticPaths = (() => PROVIDERS.map((provider) => ({ params: { provider } }))) satisfies GetStaticPaths;

/** One provider's subscribable calendar, served for /calendar.ics?provider=<provider> (and at this path). */
export const GET: APIRoute = ({ params }) => prerenderedResponse(providerCalendarPath(params['provider'] as Provider));
