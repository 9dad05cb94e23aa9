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
const ENGLISH_WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const ENGLISH_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const CHINESE_WEEKDAYS = ['周日', '周一', '周二', '周三', '周四', '周五', '周六'];

/**
 * `Tue 24 Nov 17:00 UTC` / `11月24日 周二 17:00 UTC`: a moment within the next weeks, with its weekday; `–`
 * for none. Written by hand rather than with date-fns: the translations reach the tracker's browser script.
 */
export function weekdayMinute(iso: string | null, locale: Locale): string {
  if (iso === null) return '–';
  const time = new Date(iso);
  const clock = time.toISOString().slice(11, 16);
  if (locale === 'en')
    return `${ENGLISH_WEEKDAYS[time.getUTCDay()]} ${time.getUTCDate()} ${ENGLISH_MONTHS[time.getUTCMonth()]} ${clock} UTC`;
  return `${time.getUTCMonth() + 1}月${time.getUTCDate()}日 ${CHINESE_WEEKDAYS[time.getUTCDay()]} ${clock} UTC`;
}

/** `18 %`: a probability as a whole percentage; `–` for none. */
export const percent = (probability: number | null): string =>
  probability === null ? '–' : `${Math.round(probability * 100)} %`;
