import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../languages.ts';
import { PAGE_TEMPLATES, pageTemplateOf, pageTemplatePath } from './templates.ts';

const of = (path: string) => pageTemplateOf(new URL(path, 'https://board.example'));

describe('page templates', () => {
  it('answer the board, the provider pages and the query-less tracker, in English at the root and under a prefix', () => {
    expect(of('/')).toEqual({ locale: 'en', name: 'board' });
    expect(of('/?utm_source=x')).toEqual({ locale: 'en', name: 'board' });
    expect(of('/zh')).toEqual({ locale: 'zh', name: 'board' });
    expect(of('/provider_b')).toEqual({ locale: 'en', name: 'provider_b' });
    expect(of('/ko/provider_c')).toEqual({ locale: 'ko', name: 'provider_c' });
    expect(of('/tracker')).toEqual({ locale: 'en', name: 'tracker' });
    expect(of('/ja/tracker')).toEqual({ locale: 'ja', name: 'tracker' });
  });

  it('leave every other path to Astro', () => {
    for (const path of [
      '/tracker?provider=provider_a',
      '/zh/tracker?tz=UTC',
      '/zh/',
      '/about',
      '/zh/about',
      '/provider_d',
      '/xx/provider_a',
      '/en/provider_a',
      '/zh/zh',
      '/provider_a/x',
      '/zh/provider_a/x',
      '/provider_a/',
      '/index.html',
    ])
      expect({ path, template: of(path) }).toEqual({ path, template: null });
  });

  it('are one per language and page, each at its own path', () => {
    expect(PAGE_TEMPLATES).toHaveLength(LANGUAGES.length * 5);
    const paths = PAGE_TEMPLATES.map(({ locale, name }) => pageTemplatePath(locale, name));
    expect(new Set(paths).size).toBe(paths.length);
    expect(pageTemplatePath('zh', 'provider_a')).toBe('/data/page-templates/zh/provider_a.html');
  });
});
