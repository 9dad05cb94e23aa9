import { describe, expect, inject, it } from 'vitest';
import { auditedPages } from '../scripts/lib/audited-pages.ts';
import { LANGUAGES } from '../src/core/languages.ts';
import { countElements, markupProblems } from './support/html-rules.ts';

/**
 * The markup of every page in every language, read by a real HTML parser (tests/support/html-rules.ts): the
 * rules the Nu HTML Checker held against the provider pages' charts and the tracker's link, so that `npm test`
 * catches them again without Java. The Nu checker itself runs with `npm run audit:html` (docs/website.md).
 */

const baseUrl = inject('baseUrl');

describe('the rules catch what the Nu checker reported', () => {
  it('a figure with content after its caption, an empty href, a download without href', () => {
    expect(
      markupProblems(
        '<!DOCTYPE html><html lang="en"><title>t</title><figure><svg></svg><figcaption>c</figcaption>' +
          '<details><summary>s</summary></details></figure><a id="ics-download" href download>d</a><a download>e</a>',
      ),
    ).toEqual([
      '1:48 <figure> has content both before and after its figcaption',
      '1:141 <a id="ics-download"> has an empty href',
      '1:181 <a> has download but no href',
    ]);
  });

  it('a caption first or last, a table inside the caption, and a placeholder link are fine', () => {
    const html =
      '<!DOCTYPE html><html lang="en"><title>t</title><figure><figcaption>c</figcaption><svg></svg></figure>' +
      '<figure><svg></svg><figcaption>c<details><summary>s</summary><table></table></details></figcaption></figure>' +
      '<a id="ics-download">d</a>';
    expect(markupProblems(html)).toEqual([]);
  });

  it('a parse error is a problem', () => {
    expect(markupProblems('<!DOCTYPE html><html lang="en"><title>t</title><p a=1 a=2>')).toEqual([
      expect.stringMatching(/parse error duplicate-attribute$/),
    ]);
  });
});

describe('every page in every language', () => {
  it('keeps the rules, with the charts and the tracker link among what was checked', async () => {
    const pages = await auditedPages(baseUrl);
    expect(pages.filter((path) => path.startsWith('/zh')).length).toBeGreaterThanOrEqual(6);
    const problems: Record<string, string[]> = {};
    let figures = 0;
    let downloadLinks = 0;
    for (const path of pages) {
      const response = await fetch(`${baseUrl}${path}`);
      expect(response.headers.get('content-type'), path).toMatch(/^text\/html/);
      const html = await response.text();
      figures += countElements(html, 'figure');
      downloadLinks += html.includes('id="ics-download"') ? 1 : 0;
      const found = markupProblems(html);
      if (found.length > 0) problems[path] = found;
    }
    expect(problems).toEqual({});
    // The provider pages' charts (the forecast's two among them) and the tracker's link, empty and made, in
    // every language.
    expect(figures).toBeGreaterThanOrEqual(12);
    expect(downloadLinks).toBe(2 * LANGUAGES.length);
  });
});
