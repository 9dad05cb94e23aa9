import { describe, expect, it } from 'vitest';
import { IcsQuerySchema, icsLocale } from './api/query.ts';
import { localeOfAcceptLanguage, localeOfTag, suggestedLocale } from './languages.ts';
import { pageCacheKey } from './routes/page-cache-key.ts';
import { localeOfPath, localizedPath } from './site.ts';
import { windowCalendarPath } from './tracker/window-link.ts';

/** Every expected value here is written by hand from the list of languages as switched on (en, zh). */

describe('a page’s path in each language', () => {
  it('puts every language but English under its prefix', () => {
    expect(localizedPath('/', 'zh')).toBe('/zh');
    expect(localizedPath('/about', 'zh')).toBe('/zh/about');
    expect(localizedPath('/zh/provider_a', 'zh')).toBe('/zh/provider_a');
    expect(localizedPath('/zh', 'en')).toBe('/');
    expect(localizedPath('/zh/tracker', 'en')).toBe('/tracker');
  });

  it('reads a page’s language from its prefix, English for any other path', () => {
    expect(localeOfPath('/zh/about')).toBe('zh');
    expect(localeOfPath('/zh')).toBe('zh');
    expect(localeOfPath('/zhx')).toBe('en');
    expect(localeOfPath('/provider_a')).toBe('en');
  });
});

describe('the language a reader asks for', () => {
  it('takes a code in any case, else the primary language', () => {
    expect(localeOfTag('ZH')).toBe('zh');
    expect(localeOfTag('en-AU')).toBe('en');
    expect(localeOfTag('zh-Hans-CN')).toBe('zh');
    expect(localeOfTag('it')).toBeNull();
    expect(localeOfTag('')).toBeNull();
  });

  it('follows Accept-Language by weight, skipping what the site lacks', () => {
    expect(localeOfAcceptLanguage('it-IT, zh;q=0.8, en;q=0.9')).toBe('en');
    expect(localeOfAcceptLanguage('nl, zh-CN;q=0.5')).toBe('zh');
    expect(localeOfAcceptLanguage('zh;q=0, it')).toBeNull();
    expect(localeOfAcceptLanguage(null)).toBeNull();
  });

  it('/ suggests the reader’s language only when it is not the page’s', () => {
    expect(suggestedLocale('zh-CN,zh;q=0.9', 'en')).toBe('zh');
    expect(suggestedLocale('en-US,zh;q=0.9', 'en')).toBeNull();
    expect(suggestedLocale('it', 'en')).toBeNull();
  });

  it('the page cache keeps / once per suggestion, and every other page once', () => {
    const key = (path: string, accept: string | null) =>
      pageCacheKey(new URL(`https://board.example${path}`), 'b1', 0, accept);
    expect(key('/', 'zh-CN')).toBe('https://board.example/.page-cache/b1/0/?suggest=zh');
    expect(key('/', 'en-GB')).toBe('https://board.example/.page-cache/b1/0/');
    expect(key('/zh', 'en')).toBe('https://board.example/.page-cache/b1/0/zh');
    expect(key('/zh/provider_a', null)).toBe('https://board.example/.page-cache/b1/0/zh/provider_a');
  });
});

describe('/api/ics: the spec’s locale, and lang for every language', () => {
  const base = { provider: 'provider_a', resetAt: '2026-03-04T18:30:00Z' };

  it('keeps locale as the spec has it: en or zh, anything else refused', () => {
    expect(IcsQuerySchema.safeParse({ ...base, locale: 'zh' }).success).toBe(true);
    expect(IcsQuerySchema.safeParse({ ...base, locale: 'ja' }).success).toBe(false);
  });

  it('takes lang for any site language, and refuses both at once', () => {
    const parsed = IcsQuerySchema.parse({ ...base, lang: 'zh' });
    expect(icsLocale(parsed)).toBe('zh');
    expect(icsLocale(IcsQuerySchema.parse(base))).toBe('en');
    expect(IcsQuerySchema.safeParse({ ...base, lang: 'xx' }).success).toBe(false);
    const both = IcsQuerySchema.safeParse({ ...base, locale: 'en', lang: 'zh' });
    expect(both.success).toBe(false);
    expect(both.error?.issues.map((issue) => issue.path)).toEqual([['lang']]);
  });

  it('the tracker’s link names English and Chinese by locale, as the spec has it', () => {
    const link = (locale: 'en' | 'zh') =>
      windowCalendarPath({
        provider: 'provider_a',
        resetAt: '2026-03-04T18:30:00Z',
        weeklyAt: null,
        timeZone: 'UTC',
        locale,
      });
    expect(link('zh')).toContain('&locale=zh');
    expect(link('en')).toContain('&locale=en');
    expect(link('en')).not.toContain('lang=');
  });
});
