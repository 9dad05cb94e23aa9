import { LOCALES, type Locale } from '../languages.ts';
import { lazyRecord } from '../lazy-record.ts';
import { shape, type Translations } from './shape.ts';

/**
 * The service's words: one data file per language (`words/<code>.json`, words/README.md), read in one shape
 * (shape.ts) for every language of src/core/languages.ts. Each language is shaped on its first read (lazy-record.ts):
 * an isolate that answers in one language never makes the others.
 */
export const TRANSLATIONS: Readonly<Record<Locale, Translations>> = lazyRecord(LOCALES, shape);
export type { Translations };

/** The website's words per language, as the pages read them. */
export const UI: Readonly<Record<Locale, Translations['ui']>> = lazyRecord(LOCALES, (code) => TRANSLATIONS[code].ui);
export type UiText = Translations['ui'];
