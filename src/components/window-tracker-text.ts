import { TRANSLATIONS } from '../core/i18n/index.ts';

/** The window tracker's words (src/core/i18n), used by the page and by its script. */
export const TRACKER_TEXT = { en: TRANSLATIONS.en.tracker, zh: TRANSLATIONS.zh.tracker } as const;
