import type { APIRoute } from 'astro';
import { languageOfPrefix } from '../../core/languages.ts';
import { CACHE_POLICIES, CONTENT_TYPES } from '../../core/routes/policy.ts';
import { boardMarkdown } from '../../server/board-markdown.ts';
import { pageDataset } from '../../server/page-data.ts';

/**
 * `/<prefix>/index.md`: the board as Markdown in each language beyond the spec's two (`/index.md` and
 * `/zh/index.md` are the route table's, answered before the pages), from the same renderer, per request.
 */
export const prerender = false;

export const GET: APIRoute = async ({ params, url }) => {
  const language = languageOfPrefix(params['lang']);
  if (language === undefined) return new Response('Not found', { status: 404 });
  const now = new Date();
  const markdown = await boardMarkdown({ now, dataset: () => pageDataset(url) }, language.code);
  return new Response(markdown, {
    headers: { 'Content-Type': CONTENT_TYPES.markdown, 'Cache-Control': CACHE_POLICIES.markdown },
  });
};
