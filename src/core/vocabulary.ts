/**
 * The spec's vocabulary (2.1, 2.2, 2.3): the values only, free of any library and of any word, so that browser
 * scripts can use it without carrying the translations. The labels are in src/core/i18n/labels.ts; `enums.ts`
 * builds the zod schemas from these values.
 */

export const PROVIDERS = ['provider_a', 'provider_b', 'provider_c'] as const;
export type Provider = (typeof PROVIDERS)[number];

export const EVENT_KINDS = ['reset', 'banked', 'boost', 'promo', 'tease'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export const BOARD_STATUSES = ['reset_now', 'banked', 'tease', 'waiting', 'overdue', 'no_data'] as const;
export type BoardStatus = (typeof BOARD_STATUSES)[number];

/** The site's languages are listed in languages.ts (issue 36): `Locale` is one of their codes. */
export { LOCALES, type Locale } from './languages.ts';
