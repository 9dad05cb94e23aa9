import { TRANSLATIONS } from '../i18n/index.ts';
import type { Locale } from '../vocabulary.ts';
import type { Forecast } from './schemas.ts';
import { type ForecastScores, horizonsWorseThanBaseRate } from './skill.ts';

/**
 * The forecast in one plain sentence per provider (the words live in src/core/i18n, `forecast`). They say no
 * more than the numbers: a pattern in past gaps, never a vendor plan or a promise.
 */
export const forecastSentence = (forecast: Forecast, locale: Locale): string =>
  TRANSLATIONS[locale].forecast.sentences[forecast.basis](forecast);

/** What the numbers are and are not, for a note beside the sentence. */
export const forecastNote = (locale: Locale): string => TRANSLATIONS[locale].forecast.note;

const brierNumber = (value: number | null): string => (value === null ? '–' : value.toFixed(3));

/**
 * Said beside the forecast's numbers where they have scored worse than the base rate (skill.ts), with the scores;
 * null where none has.
 */
export function worseThanBaseRateNote(scores: ForecastScores, locale: Locale): string | null {
  const worse = horizonsWorseThanBaseRate(scores);
  if (worse.length === 0) return null;
  const words = TRANSLATIONS[locale].glance;
  return words.worseThanBaseRate(
    worse.map((horizon) => words.horizons[horizon]),
    worse.map((horizon) => brierNumber(scores[horizon].brierScore)),
    worse.map((horizon) => brierNumber(scores[horizon].baseRateBrierScore)),
  );
}
