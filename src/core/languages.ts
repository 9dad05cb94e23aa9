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
   * digit that "and" would break (Chinese: `1、3、7`, docs/glossary-zh.md). Long when not given.
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
] as const satisfies readonly Language[];

export type Locale = (typeof LANGUAGES)[number]['code'];
export const LOCALES = LANGUAGES.map((language) => language.code) as unknown as readonly [Locale, ...Locale[]];
/** Every language but English: the ones under a path prefix. */
export const PREFIXED_LANGUAGES: readonly Language[] = LANGUAGES.filter((language) => language.prefix !== '');

const BY_CODE = new Map<string, Language>(LANGUAGES.map((language) => [language.code, language]));
/** The entry of a site language. */
export const languageOf = (locale: Locale): Language => BY_CODE.get(locale) as Language;
/** Whether a string is a site language's code (`pt-BR`, exactly). */
export const isLocale = (value: string): value is Locale => BY_CODE.has(value);
