import { XMLParser } from 'fast-xml-parser';
import { describe, expect, inject, it } from 'vitest';
import { PREFIXED_LANGUAGES } from '../src/core/languages.ts';
import { PROVIDERS } from '../src/core/vocabulary.ts';
import { STATUS_LABELS } from '../src/core/i18n/labels.ts';

/** What every site owes the crawlers and browsers that visit it (issue 14, "Website"), checked on the served build. */

const baseUrl = inject('baseUrl');
const ENGLISH_PAGES = ['/', ...PROVIDERS.map((provider) => `/${provider}`), '/tracker', '/api', '/about'];
/** Every language but English (src/core/languages.ts), by its path prefix and its hreflang tag. */
const PREFIXED: [string, string][] = PREFIXED_LANGUAGES.map((language) => [language.prefix, language.tag]);
const under = (prefix: string, path: string) => (path === '/' ? `/${prefix}` : `/${prefix}${path}`);
const ALL_PAGES = ENGLISH_PAGES.flatMap((path) => [path, ...PREFIXED.map(([prefix]) => under(prefix, path))]);

describe('robots.txt and sitemap.xml', () => {
  it('robots.txt allows crawling and names the sitemap', async () => {
    const response = await fetch(`${baseUrl}/robots.txt`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const lines = (await response.text()).split('\n').map((line) => line.trim());
    expect(lines).toContain('User-agent: *');
    expect(lines).toContain(`Sitemap: ${baseUrl}/sitemap.xml`);
    expect(lines).not.toContain('Disallow: /');
  });

  it('sitemap.xml lists every page in every language, each with its hreflang alternates', async () => {
    const response = await fetch(`${baseUrl}/sitemap.xml`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/xml/);
    const parsed = new XMLParser({
      ignoreAttributes: false,
      isArray: (name) => name === 'url' || name === 'xhtml:link',
    }).parse(await response.text()) as {
      urlset: {
        '@_xmlns': string;
        url: { loc: string; 'xhtml:link': { '@_hreflang': string; '@_href': string }[] }[];
      };
    };
    expect(parsed.urlset['@_xmlns']).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    const urls = parsed.urlset.url;
    expect(urls.map((url) => url.loc).sort()).toEqual(ALL_PAGES.map((path) => `${baseUrl}${path}`).sort());
    for (const url of urls) {
      const path = url.loc.slice(baseUrl.length);
      const prefix = PREFIXED.find(([candidate]) => path === `/${candidate}` || path.startsWith(`/${candidate}/`));
      const english = prefix === undefined ? path : path === `/${prefix[0]}` ? '/' : path.slice(prefix[0].length + 1);
      const alternates = Object.fromEntries(url['xhtml:link'].map((link) => [link['@_hreflang'], link['@_href']]));
      expect(alternates, path).toEqual({
        en: `${baseUrl}${english}`,
        ...Object.fromEntries(PREFIXED.map(([candidate, tag]) => [tag, `${baseUrl}${under(candidate, english)}`])),
        'x-default': `${baseUrl}${english}`,
      });
    }
    for (const url of urls) expect((await fetch(url.loc, { method: 'HEAD' })).status, url.loc).toBe(200);
  });
});

describe('pages', () => {
  it('every page is HTML in UTF-8, says so in Content-Type, and says how long it may be cached', async () => {
    for (const path of [...ALL_PAGES, '/no-such-page']) {
      const response = await fetch(`${baseUrl}${path}`);
      expect(response.headers.get('content-type'), path).toMatch(/^text\/html;\s*charset=utf-8$/i);
      expect(response.headers.get('cache-control'), path).toMatch(/(^|[\s,])(s-maxage|max-age)=\d+|no-store|no-cache/);
    }
  });

  it('/unavailable is no public page: asked for directly, it is not found', async () => {
    for (const path of ['/unavailable', '/zh/unavailable']) {
      const response = await fetch(`${baseUrl}${path}`);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('retry-after'), path).toBeNull();
    }
  });

  it('the English summaries of events inside Chinese pages are marked lang="en"', async () => {
    for (const path of ['/zh', `/zh/${PROVIDERS[0]}`]) {
      const html = await (await fetch(`${baseUrl}${path}`)).text();
      const summaries = [...html.matchAll(/<p\b[^>]*class="summary"[^>]*>/g)].map((match) => match[0]);
      expect(summaries.length, path).toBeGreaterThan(0);
      for (const tag of summaries) expect(tag, path).toMatch(/\blang="en"/);
    }
  });
});

describe('the badge', () => {
  it('is cacheable by browsers, and embedded with its width and height', async () => {
    const response = await fetch(`${baseUrl}/badge/${PROVIDERS[0]}.svg`);
    expect(response.headers.get('cache-control')).toMatch(/(^|[\s,])max-age=[1-9]\d*/);
    const svg = await response.text();
    const [, width, height] = /<svg\b[^>]*\bwidth="(\d+)"[^>]*\bheight="(\d+)"/.exec(svg) ?? [];
    expect(Number(width)).toBeGreaterThan(0);
    const html = await (await fetch(`${baseUrl}/${PROVIDERS[0]}`)).text();
    const img = new RegExp(`<img\\b[^>]*src="/badge/${PROVIDERS[0]}\\.svg"[^>]*>`).exec(html)?.[0] ?? '';
    expect(img).toMatch(new RegExp(`\\bwidth="${width}"`));
    expect(img).toMatch(new RegExp(`\\bheight="${height}"`));
  });

  it('is described in the page’s language: the provider and its status word', async () => {
    for (const [page, provider, colon, locale] of [
      [`/${PROVIDERS[1]}`, 'Provider B', ': ', 'en'],
      [`/zh/${PROVIDERS[1]}`, '供应商 B', '：', 'zh'],
    ] as const) {
      const html = await (await fetch(`${baseUrl}${page}`)).text();
      const alt = /<img\b[^>]*src="\/badge\/[^"]+\.svg"[^>]*\balt="([^"]*)"/.exec(html)?.[1];
      const words = Object.values(STATUS_LABELS[locale]);
      expect(
        words.map((word) => `${provider}${colon}${word}`),
        page,
      ).toContain(alt);
    }
  });
});

describe('Astro’s hashed assets (/_astro/*)', () => {
  it('a present one is cached for a year as immutable; a missing one is a 404 that is not', async () => {
    const home = await (await fetch(`${baseUrl}/`)).text();
    const stylesheet = /href="(\/_astro\/[^"]+\.css)"/.exec(home)?.[1];
    expect(stylesheet).toBeDefined();
    const present = await fetch(`${baseUrl}${stylesheet!}`);
    expect(present.status).toBe(200);
    expect(present.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    await present.arrayBuffer();
    const missing = await fetch(`${baseUrl}/_astro/no-such-file.B4dH4sh.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cache-control') ?? '').not.toMatch(/immutable|max-age=31536000/);
    await missing.arrayBuffer();
  });
});
