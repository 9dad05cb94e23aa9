import { TRANSLATIONS } from '../core/i18n/index.ts';

/** The window tracker's words (src/core/i18n), used by the page and by its script. */
export const TRACKER_TEXT = Object.fromEntries(
  Object.entries(TRANSLATIONS).map(([locale, words]) => [locale, words.tracker]),
) as { readonly [L in keyof typeof TRANSLATIONS]: (typeof TRANSLATIONS)[L]['tracker'] };
