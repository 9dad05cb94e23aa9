import { escapeUTF8 as escapeXml } from 'entities';
import { PROVIDERS } from '../vocabulary.ts';

/** The site's pages in English; each has a Chinese twin under `/zh` (src/pages/zh). */
export const SITE_PAGES = ['/', ...PROVIDERS.map((provider) => `/${provider}`), '/tracker', '/api', '/about'] as const;

const chinesePath = (english: string) => (english === '/' ? '/zh' : `/zh${english}`);

/**
 * `/sitemap.xml`: every page in both languages, each naming both as hreflang alternates (as the pages' heads do).
 * Its one value from outside, `{base_url}` (SITE_URL), is escaped as XML text.
 */
export function renderSitemap(baseUrl: string): string {
  const address = (path: string) => escapeXml(`${baseUrl}${path}`);
  const alternates = (english: string) =>
    (
      [
        ['en', english],
        ['zh-Hans', chinesePath(english)],
        ['x-default', english],
      ] as const
    )
      .map(([lang, path]) => `    <xhtml:link rel="alternate" hreflang="${lang}" href="${address(path)}"/>`)
      .join('\n');
  const entries = SITE_PAGES.flatMap((english) =>
    [english, chinesePath(english)].map((path) =>
      ['  <url>', `    <loc>${address(path)}</loc>`, alternates(english), '  </url>'].join('\n'),
    ),
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...entries,
    '</urlset>',
    '',
  ].join('\n');
}

/** `/robots.txt`: everything may be crawled; the sitemap says where the pages are. */
export const renderRobotsTxt = (baseUrl: string): string =>
  ['User-agent: *', 'Allow: /', '', `Sitemap: ${baseUrl}/sitemap.xml`, ''].join('\n');
