import type { APIRoute, GetStaticPaths } from 'astro';
import { providerFeedPath } from '../../../core/built-paths.ts';
import { FEED_FORMATS, type FeedFormat } from '../../../core/render/feed-formats.ts';
import { PROVIDERS } from '../../../core/vocabulary.ts';
import { prerenderedResponse } from '../../../build/prerendered.ts';

export const prerender = true;

/** Each provider's feed in each format, picked by functions/api/feeds.ts for `?provider=`. */
export const getStaticPaths = (() =>
  PROVIDERS.flatMap((provider) =>
    (Object.keys(FEED_FORMATS) as FeedFormat[]).map((format) => {
      const path = providerFeedPath(format, provider);
      return { params: { file: path.slice(path.lastIndexOf('/') + 1) }, props: { path } };
    }),
  )) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => prerenderedResponse((props as { path: string }).path);
