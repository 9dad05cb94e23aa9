import type { BoardStatus, EventKind, Locale, Provider } from '../vocabulary.ts';
import { TRANSLATIONS } from './index.ts';

/**
 * The labels (decisions.md, "Names and labels") per locale, from the locale folders beside this one. The
 * vocabulary (src/core/vocabulary.ts) holds the values only; whoever shows a label imports it from here.
 */
export const PROVIDER_LABELS: Record<Locale, Record<Provider, string>> = {
  en: TRANSLATIONS.en.providers,
  zh: TRANSLATIONS.zh.providers,
};
export const KIND_LABELS: Record<Locale, Record<EventKind, string>> = {
  en: TRANSLATIONS.en.kinds,
  zh: TRANSLATIONS.zh.kinds,
};
export const STATUS_LABELS: Record<Locale, Record<BoardStatus, string>> = {
  en: TRANSLATIONS.en.statuses,
  zh: TRANSLATIONS.zh.statuses,
};
