import type { APIRoute, GetStaticPaths } from 'astro';
import { providerPagePath } from '../../../core/provider-page.ts';
import { PROVIDERS, type Provider } from '../../../core/vocabulary.ts';
import { prerenderedResponse } from '../../../build/prerendered.ts';

export const prerender = true;

export const getStaticPaths = (() => PROVIDERS.map((provider) => ({ params: { provider } }))) satisfies GetStaticPaths;

/** One provider page's data, validated once and stamped; the page's worker trusts the stamp. */
export const GET: APIRoute = ({ params }) => prerenderedResponse(providerPagePath(params['provider'] as Provider));
