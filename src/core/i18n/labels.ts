import { LOCALES } from '../languages.ts';
import { lazyRecord } from '../lazy-record.ts';
import type { BoardStatus, EventKind, Locale, Provider } from '../vocabulary.ts';
import { TRANSLATIONS } from './index.ts';

/**
 * The labels (decisions.md, "Names and labels") per language, from the words files. The vocabulary
 * (src/core/vocabulary.ts) holds the values only; whoever shows a label imports it from here. A language's labels
 * are read from its words on first use, so that an isolate makes the words of the languages it answers in only.
 */
const byLanguage = <T>(pick: (locale: Locale) => T): Readonly<Record<Locale, T>> => lazyRecord(LOCALES, pick);

export const PROVIDER_LABELS: Readonly<Record<Locale, Record<Provider, string>>> = byLanguage(
  (locale) => TRANSLATIONS[locale].providers,
);
export const KIND_LABELS: Readonly<Record<Locale, Record<EventKind, string>>> = byLanguage(
  (locale) => TRANSLATIONS[locale].kinds,
);
export const STATUS_LABELS: Readonly<Record<Locale, Record<BoardStatus, string>>> = byLanguage(
  (locale) => TRANSLATIONS[locale].statuses,
);
