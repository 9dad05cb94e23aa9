import { describe, expect, it } from 'vitest';
import { IcsQuerySchema, icsLocale } from './api/query.ts';
import { localeOfAcceptLanguage, localeOfTag, suggestedLocale } from './languages.ts';
import { pageCacheKey } from './routes/page-cache-key.ts';
import { localeOfPath, localizedPath } from './site.ts';
import { windowCalendarPath } from './tracker/window-link.ts';

/** Every expected value here is written by hand from the list of languages (en, zh, ja, ko, es, de, fr, pt-BR). */

describe('a page’s path in each language', () => {
  it('puts every language but English under its prefix, Brazilian Portuguese under /pt-br', () => {
    expect(localizedPath('/', 'pt-BR')).toBe('/pt-br');
    expect(localizedPath('/about', 'pt-BR')).toBe('/pt-br/about');
    expect(localizedPath('/pt-br/provider_a', 'ja')).toBe('/ja/provider_a');
    expect(localizedPath('/zh', 'en')).toBe('/');
    expect(localizedPath('/de/tracker', 'zh')).toBe('/zh/tracker');
  });

  it('reads a page’s language from its prefix, English for any other path', () => {
    expect(localeOfPath('/pt-br/about')).toBe('pt-BR');
    expect(localeOfPath('/ko')).toBe('ko');
    expect(localeOfPath('/korea')).toBe('en');
    expect(localeOfPath('/provider_a')).toBe('en');
  });
});

describe('the language a reader asks for', () => {
  it('takes a code in any case, else the primary language', () => {
    expect(localeOfTag('PT-br')).toBe('pt-BR');
    expect(localeOfTag('pt-PT')).toBe('pt-BR');
    expect(localeOfTag('de-AT')).toBe('de');
    expect(localeOfTag('zh-Hans-CN')).toBe('zh');
    expect(localeOfTag('it')).toBeNull();
    expect(localeOfTag('')).toBeNull();
  });

  it('follows Accept-Language by weight, skipping what the site lacks', () => {
    expect(localeOfAcceptLanguage('it-IT, ja;q=0.8, en;q=0.9')).toBe('en');
    expect(localeOfAcceptLanguage('nl, ko;q=0.5')).toBe('ko');
    expect(localeOfAcceptLanguage('fr;q=0, it')).toBeNull();
    expect(localeOfAcceptLanguage(null)).toBeNull();
  });

  it('/ suggests the reader’s language only when it is not the page’s', () => {
    expect(suggestedLocale('es-MX,es;q=0.9', 'en')).toBe('es');
    expect(suggestedLocale('en-US,es;q=0.9', 'en')).toBeNull();
    expect(suggestedLocale('it', 'en')).toBeNull();
  });

  it('the page cache keeps / once per suggestion, and every other page once', () => {
    const key = (path: string, accept: string | null) =>
      pageCacheKey(new URL(`https://board.example${path}`), 'b1', 0, accept);
    expect(key('/', 'de-DE')).toBe('https://board.example/.page-cache/b1/0/?suggest=de');
    expect(key('/', 'en-GB')).toBe('https://board.example/.page-cache/b1/0/');
    expect(key('/ja', 'de-DE')).toBe('https://board.example/.page-cache/b1/0/ja');
    expect(key('/pt-br/provider_a', null)).toBe('https://board.example/.page-cache/b1/0/pt-br/provider_a');
  });
});

describe('/api/ics: the spec’s locale, and lang for every language', () => {
  const base = { provider: 'provider_a', resetAt: '2026-03-04T18:30:00Z' };

  it('keeps locale as the spec has it: en or zh, anything else refused', () => {
    expect(IcsQuerySchema.safeParse({ ...base, locale: 'zh' }).success).toBe(true);
    expect(IcsQuerySchema.safeParse({ ...base, locale: 'ja' }).success).toBe(false);
  });

  it('takes lang for any site language, and refuses both at once', () => {
    const parsed = IcsQuerySchema.parse({ ...base, lang: 'pt-BR' });
    expect(icsLocale(parsed)).toBe('pt-BR');
    expect(icsLocale(IcsQuerySchema.parse(base))).toBe('en');
    expect(IcsQuerySchema.safeParse({ ...base, lang: 'xx' }).success).toBe(false);
    const both = IcsQuerySchema.safeParse({ ...base, locale: 'en', lang: 'de' });
    expect(both.success).toBe(false);
    expect(both.error?.issues.map((issue) => issue.path)).toEqual([['lang']]);
  });

  it('the tracker’s link names English and Chinese by locale, the others by lang', () => {
    const link = (locale: 'en' | 'zh' | 'de') =>
      windowCalendarPath({
        provider: 'provider_a',
        resetAt: '2026-03-04T18:30:00Z',
        weeklyAt: null,
        timeZone: 'UTC',
        locale,
      });
    expect(link('zh')).toContain('&locale=zh');
    expect(link('de')).toContain('&lang=de');
    expect(link('de')).not.toContain('locale=');
  });
});
