import { TRANSLATIONS } from '../i18n/index.ts';
import type { Locale } from '../vocabulary.ts';
import type { Forecast } from './schemas.ts';

/**
 * The forecast in one plain sentence per provider (the words live in src/core/i18n, `forecast`). They say no
 * more than the numbers: a pattern in past gaps, never a vendor plan or a promise.
 */
export const forecastSentence = (forecast: Forecast, locale: Locale): string =>
  TRANSLATIONS[locale].forecast.sentences[forecast.basis](forecast);

/** What the numbers are and are not, for a note beside the sentence. */
export const forecastNote = (locale: Locale): string => TRANSLATIONS[locale].forecast.note;
