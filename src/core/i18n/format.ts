import type { Locale } from '../vocabulary.ts';

/** Number and time formats the translations share. */
export { utcDay, utcMinute } from '../time-format.ts';

/** `3.5 days` / `3.5 天`. */
export const days = (value: number, locale: Locale): string =>
  locale === 'en' ? `${value.toFixed(1)} days` : `${value.toFixed(1)} 天`;

/** A span of minutes in its largest whole unit: under 2 hours in minutes, under 2 days in hours, else days. */
export function wholeDuration(minutes: number): { amount: number; unit: 'minutes' | 'hours' | 'days' } {
  if (minutes < 120) return { amount: minutes, unit: 'minutes' };
  if (minutes < 48 * 60) return { amount: Math.floor(minutes / 60), unit: 'hours' };
  return { amount: Math.floor(minutes / (24 * 60)), unit: 'days' };
}
