import { UTCDate } from '@date-fns/utc';
import { format } from 'date-fns';
import type { Locale } from '../vocabulary.ts';

/** Number and time formats the translations share. */
export { utcDay, utcMinute } from '../time-format.ts';

/** `3.5 days` / `3.5 天`. */
export const days = (value: number, locale: Locale): string =>
  locale === 'en' ? `${value.toFixed(1)} days` : `${value.toFixed(1)} 天`;

const CHINESE_WEEKDAYS = ['周日', '周一', '周二', '周三', '周四', '周五', '周六'];

/** `Tue 24 Nov 17:00 UTC` / `11月24日 周二 17:00 UTC`: a moment within the next weeks, with its weekday; `–` for none. */
export function weekdayMinute(iso: string | null, locale: Locale): string {
  if (iso === null) return '–';
  const time = new UTCDate(iso);
  if (locale === 'en') return `${format(time, 'EEE d MMM HH:mm')} UTC`;
  return `${time.getMonth() + 1}月${time.getDate()}日 ${CHINESE_WEEKDAYS[time.getDay()]} ${format(time, 'HH:mm')} UTC`;
}

/** `18 %`: a probability as a whole percentage; `–` for none. */
export const percent = (probability: number | null): string =>
  probability === null ? '–' : `${Math.round(probability * 100)} %`;
