import type { BoardStatus, EventKind, Locale, Provider } from '../vocabulary.ts';
import { en } from './en.ts';
import { zh } from './zh.ts';

/** The labels (decisions.md, "Names and labels") per locale, from the translation files beside this one. */
export const PROVIDER_LABELS: Record<Locale, Record<Provider, string>> = { en: en.providers, zh: zh.providers };
export const KIND_LABELS: Record<Locale, Record<EventKind, string>> = { en: en.kinds, zh: zh.kinds };
export const STATUS_LABELS: Record<Locale, Record<BoardStatus, string>> = { en: en.statuses, zh: zh.statuses };
