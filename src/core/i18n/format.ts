import type { Locale } from '../vocabulary.ts';

/** Number and time formats the translations share. */
export { utcDay, utcMinute } from '../time-format.ts';

/** `3.5 days` / `3.5 天`. */
export const days = (value: number, locale: Locale): string =>
  locale === 'en' ? `${value.toFixed(1)} days` : `${value.toFixed(1)} 天`;
