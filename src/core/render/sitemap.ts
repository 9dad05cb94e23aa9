import { escapeUTF8 as escapeXml } from 'entities';
import { LANGUAGES } from '../languages.ts';
import { localizedPath } from '../site.ts';
import { PROVIDERS } from '../vocabulary.ts';

/** The site's pages in English; each has a twin in every other language under its prefix (src/pages/[lang]). */
export const SITE_PAGES = ['/', ...PROVIDERS.map((provider) => `/${provider}`), '/tracker', '/api', '/about'] as const;

/**
 * `/sitemap.xml`: every page in every language, each naming all as hreflang alternates (as the pages' heads do).
 * Its one value from outside, `{base_url}` (SITE_URL), is escaped as XML text.
 */
export function renderSitemap(baseUrl: string): string {
  const address = (path: string) => escapeXml(`${baseUrl}${path}`);
  const alternates = (english: string) =>
    [
      ...LANGUAGES.map((language): [string, string] => [language.tag, localizedPath(english, language.code)]),
      ['x-default', english] as [string, string],
    ]
      .map(([lang, path]) => `    <xhtml:link rel="alternate" hreflang="${lang}" href="${address(path)}"/>`)
      .join('\n');
  const entries = SITE_PAGES.flatMap((english) =>
    LANGUAGES.map((language) => localizedPath(english, language.code)).map((path) =>
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
