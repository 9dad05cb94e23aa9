import { en } from './i18n/en.ts';
import { zh } from './i18n/zh.ts';

/**
 * The spec's vocabulary (2.1, 2.2, 2.3), free of any library so that browser scripts can use it too; the
 * labels in each language are in src/core/i18n. `enums.ts` builds the zod schemas from these values.
 */

export const PROVIDERS = ['provider_a', 'provider_b', 'provider_c'] as const;
export type Provider = (typeof PROVIDERS)[number];

export const EVENT_KINDS = ['reset', 'banked', 'boost', 'promo', 'tease'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export const BOARD_STATUSES = ['reset_now', 'banked', 'tease', 'waiting', 'overdue', 'no_data'] as const;
export type BoardStatus = (typeof BOARD_STATUSES)[number];

export const LOCALES = ['en', 'zh'] as const;
export type Locale = (typeof LOCALES)[number];

/** The labels (decisions.md, "Names and labels"), from the translations (src/core/i18n). */
export const PROVIDER_LABELS: Record<Locale, Record<Provider, string>> = { en: en.providers, zh: zh.providers };
export const KIND_LABELS: Record<Locale, Record<EventKind, string>> = { en: en.kinds, zh: zh.kinds };
export const STATUS_LABELS: Record<Locale, Record<BoardStatus, string>> = { en: en.statuses, zh: zh.statuses };
