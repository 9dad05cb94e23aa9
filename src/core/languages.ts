/**
 * The site's languages, in one place (issue 36): the pages, the Markdown mirrors, the feeds' and calendars' words,
 * MCP, the notifications and the schemas of every `locale` read this list. A language is its words file
 * (`src/core/i18n/words/<code>.json`) and one entry here; English is the reference and is served at the root,
 * every other language under `/<prefix>/`. Free of words and of libraries, so that the vocabulary and the
 * browser scripts can import it.
 */
export interface Language {
  /** The code of the words file and of every `locale` value (`pt-BR`). */
  readonly code: string;
  /** The BCP 47 tag of `<html lang>` and `hreflang` (`zh-Hans`: the simplified script). */
  readonly tag: string;
  /**
   * The locale of Intl's formatters (numbers, lists, names of months and weekdays, plural rules): the tag, or a
   * region's usage the site's words follow (its English writes `24 Nov` and `1, 3 and 7`, as en-GB does).
   */
  readonly intl: string;
  /**
   * How a list is joined (Intl.ListFormat's style); `narrow` where the words keep a space between a word and a
   * digit that "and" would break (Chinese: `1、3、7`, docs/glossary/zh.md). Long when not given.
   */
  readonly listStyle?: Intl.ListFormatStyle;
  /** The pages' path prefix without slashes (`pt-br`); English's is empty: it is served at the root. */
  readonly prefix: string;
  /** The language's name in itself, as a link to it reads (`Deutsch`). */
  readonly name: string;
}

export const LANGUAGES = [
  { code: 'en', tag: 'en', intl: 'en-GB', prefix: '', name: 'English' },
  { code: 'zh', tag: 'zh-Hans', intl: 'zh-Hans', prefix: 'zh', name: '中文', listStyle: 'narrow' },
  { code: 'ja', tag: 'ja', intl: 'ja', prefix: 'ja', name: '日本語' },
  { code: 'ko', tag: 'ko', intl: 'ko', prefix: 'ko', name: '한국어' },
  { code: 'es', tag: 'es', intl: 'es', prefix: 'es', name: 'Español' },
  { code: 'de', tag: 'de', intl: 'de', prefix: 'de', name: 'Deutsch' },
  { code: 'fr', tag: 'fr', intl: 'fr', prefix: 'fr', name: 'Français' },
  { code: 'pt-BR', tag: 'pt-BR', intl: 'pt-BR', prefix: 'pt-br', name: 'Português (Brasil)' },
] as const satisfies readonly Language[];

export type Locale = (typeof LANGUAGES)[number]['code'];
/** A listed language: its code is a `Locale`. */
export type SiteLanguage = Language & { readonly code: Locale };
export const LOCALES = LANGUAGES.map((language) => language.code) as unknown as readonly [Locale, ...Locale[]];
/** Every language but English: the ones under a path prefix. */
export const PREFIXED_LANGUAGES: readonly SiteLanguage[] = LANGUAGES.filter((language) => language.prefix !== '');

const BY_CODE = new Map<string, SiteLanguage>(LANGUAGES.map((language) => [language.code, language]));
/** The entry of a site language. */
export const languageOf = (locale: Locale): SiteLanguage => BY_CODE.get(locale) as SiteLanguage;
/** Whether a string is a site language's code (`pt-BR`, exactly). */
export const isLocale = (value: string): value is Locale => BY_CODE.has(value);
/** The language served under a path prefix (`zh`, `pt-br`); undefined for any other segment, and for English's. */
export const languageOfPrefix = (segment: string | undefined): SiteLanguage | undefined =>
  segment === undefined || segment === ''
    ? undefined
    : PREFIXED_LANGUAGES.find((language) => language.prefix === segment);

/**
 * The site language a BCP 47 tag asks for: the language of that exact code (`pt-BR`, any case), else the one whose
 * code has the tag's primary language (`pt-PT` and `pt` read Brazilian Portuguese, `zh-CN` Chinese); null for none.
 */
export function localeOfTag(tag: string): Locale | null {
  const wanted = tag.trim().toLowerCase();
  if (wanted === '') return null;
  const exact = LANGUAGES.find((language) => language.code.toLowerCase() === wanted);
  if (exact !== undefined) return exact.code;
  const primary = wanted.split('-')[0];
  return LANGUAGES.find((language) => language.code.toLowerCase().split('-')[0] === primary)?.code ?? null;
}

/** The first of an `Accept-Language` header's ranges (by weight, then order) that names a site language; null for none. */
export function localeOfAcceptLanguage(header: string | null | undefined): Locale | null {
  const ranges = (header ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...parameters] = part.trim().split(';');
      const weight = parameters.map((parameter) => /^\s*q=([0-9.]+)\s*$/i.exec(parameter)?.[1]).find(Boolean);
      return { tag: tag.trim(), weight: weight === undefined ? 1 : Number(weight), index };
    })
    .filter((range) => range.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const range of ranges) {
    const locale = localeOfTag(range.tag);
    if (locale !== null) return locale;
  }
  return null;
}

/**
 * The language `/` suggests to a reader (never forces: a line with a link, no redirect): the first of the browser's
 * languages that the site has, when it is not the page's own. Null when there is nothing to suggest.
 */
export function suggestedLocale(acceptLanguage: string | null | undefined, pageLocale: Locale): Locale | null {
  const wanted = localeOfAcceptLanguage(acceptLanguage);
  return wanted === null || wanted === pageLocale ? null : wanted;
}

/** The route id of a language's Markdown mirror (`getMarkdownEn`, `getMarkdownZh`, `getMarkdownPtBr`). */
export type MarkdownEndpointId = `getMarkdown${string}`;
export const markdownEndpointId = (code: string): MarkdownEndpointId =>
  `getMarkdown${code
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1).toLowerCase())
    .join('')}`;
