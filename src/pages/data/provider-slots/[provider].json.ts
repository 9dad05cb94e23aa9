import type { APIRoute, GetStaticPaths } from 'astro';
import { providerSlotFactsPath } from '../../../core/provider-page.ts';
import { PROVIDERS, type Provider } from '../../../core/vocabulary.ts';
import { prerenderedResponse } from '../../../build/prerendered.ts';

export const prerender = true;

export const getStaticPaths = (() => PROVIDERS.map((provider) => ({ params: { provider } }))) satisfies GetStaticPaths;

/** What a provider page's slots read at request time besides the summary (src/core/provider-page.ts), stamped. */
export const GET: APIRoute = ({ params }) => prerenderedResponse(providerSlotFactsPath(params['provider'] as Provider));
