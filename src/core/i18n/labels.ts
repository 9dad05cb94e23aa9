import { LANGUAGES } from '../languages.ts';
import type { BoardStatus, EventKind, Locale, Provider } from '../vocabulary.ts';
import { TRANSLATIONS } from './index.ts';

/**
 * The labels (decisions.md, "Names and labels") per language, from the words files. The vocabulary
 * (src/core/vocabulary.ts) holds the values only; whoever shows a label imports it from here.
 */
const byLanguage = <T>(pick: (locale: Locale) => T): Record<Locale, T> =>
  Object.fromEntries(LANGUAGES.map((language) => [language.code, pick(language.code)])) as Record<Locale, T>;

export const PROVIDER_LABELS: Record<Locale, Record<Provider, string>> = byLanguage(
  (locale) => TRANSLATIONS[locale].providers,
);
export const KIND_LABELS: Record<Locale, Record<EventKind, string>> = byLanguage(
  (locale) => TRANSLATIONS[locale].kinds,
);
export const STATUS_LABELS: Record<Locale, Record<BoardStatus, string>> = byLanguage(
  (locale) => TRANSLATIONS[locale].statuses,
);
