import { LANGUAGES } from '../../src/core/languages.ts';

/**
 * The HTML pages a markup check reads on a served build: every page the sitemap lists (every language), the 404
 * page, and the tracker with a calendar link made (its answer to the no-JavaScript form) in every language.
 * Shared by `npm run audit:html` (the Nu HTML Checker) and tests/html-markup.test.ts (parse5, in `npm test`).
 */

/** A made link's form values: a date that only names itself, and a zone with an offset. */
const MADE_LINK = '?weekly=2026-11-23T09%3A00&tz=America%2FNew_York';

export async function auditedPages(baseUrl: string): Promise<string[]> {
  const response = await fetch(`${baseUrl}/sitemap.xml`);
  if (!response.ok) throw new Error(`${baseUrl}/sitemap.xml answered ${response.status}`);
  // The sitemap's addresses start with SITE_URL, which need not be where this build is served: the paths only.
  const listed = [...(await response.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map(([, loc]) => new URL(loc!).pathname);
  const madeLinks = LANGUAGES.map(({ prefix }) => `${prefix === '' ? '' : `/${prefix}`}/tracker${MADE_LINK}`);
  return [...listed, '/no-such-page', ...madeLinks];
}
