import type { APIRoute, GetStaticPaths } from 'astro';
import { buildProviderPageData } from '../../../core/provider-page.ts';
import { PROVIDERS, type Provider } from '../../../core/vocabulary.ts';
import { buildTimeEvents } from '../../../build/dataset.ts';

export const prerender = true;

export const getStaticPaths = (() => PROVIDERS.map((provider) => ({ params: { provider } }))) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ params }) => {
  const { events, builtAt } = await buildTimeEvents();
  return Response.json(buildProviderPageData(params['provider'] as Provider, events, new Date(builtAt)));
};
