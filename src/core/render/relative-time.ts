import { relativeTimeFormat } from '../i18n/intl.ts';
import { languageOf, type Locale } from '../languages.ts';

/** "6 days ago", "in 3 hours", "3 天后": the largest whole unit, in the page's language (Intl, no library). */
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

export function relativeTime(targetMs: number, nowMs: number, locale: Locale): string {
  const format = relativeTimeFormat(languageOf(locale).intl);
  const delta = targetMs - nowMs;
  for (const [unit, size] of UNITS) {
    if (Math.abs(delta) >= size || unit === 'minute') return spaced(format.format(Math.trunc(delta / size), unit));
  }
  return spaced(format.format(0, 'minute'));
}

/** Intl sets digits right against the Chinese characters; the house puts a space between them, as zh.ts does. */
const spaced = (text: string): string => text.replace(/(\d)(?=\p{Script=Han})/gu, '$1 ');
