/** Chinese number and date forms the words share. */

const WEEKDAYS = ['周日', '周一', '周二', '周三', '周四', '周五', '周六'];

/** `3.5 天`. */
export const days = (value: number): string => `${value.toFixed(1)} 天`;

/**
 * `11月24日 周二 17:00 UTC`: a moment within the next weeks, with its weekday; `–` for none. Spelled out here
 * rather than with Intl so that the words do not depend on the runtime's locale data.
 */
export function weekdayMinute(iso: string | null): string {
  if (iso === null) return '–';
  const time = new Date(iso);
  const clock = time.toISOString().slice(11, 16);
  return `${time.getUTCMonth() + 1}月${time.getUTCDate()}日 ${WEEKDAYS[time.getUTCDay()]} ${clock} UTC`;
}

/** `2026年6月10日`: a UTC day as Chinese text writes it. */
export function chineseDay(iso: string): string {
  const day = new Date(iso);
  return `${day.getUTCFullYear()}年${day.getUTCMonth() + 1}月${day.getUTCDate()}日`;
}

/** `1、3、7`. */
export const enumeration = (values: readonly (number | string)[]): string => values.join('、');
