import { LANGUAGES, type Locale } from '../languages.ts';
import { shape, type Translations } from './shape.ts';

/**
 * The service's words: one data file per language (`words/<code>.json`, words/README.md), read in one shape
 * (shape.ts) for every language of src/core/languages.ts.
 */
export const TRANSLATIONS: Readonly<Record<Locale, Translations>> = Object.fromEntries(
  LANGUAGES.map((language) => [language.code, shape(language.code)]),
) as Record<Locale, Translations>;
export type { Translations };

/** The website's words per language, as the pages read them. */
export const UI: Readonly<Record<Locale, Translations['ui']>> = Object.fromEntries(
  LANGUAGES.map((language) => [language.code, TRANSLATIONS[language.code].ui]),
) as Record<Locale, Translations['ui']>;
export type UiText = Translations['ui'];
