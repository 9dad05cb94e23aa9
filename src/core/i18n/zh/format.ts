/** Chinese number and date forms the words share. */

const WEEKDAYS = ['周日', '周一', '周二', '周三', '周四', '周五', '周六'];

/** `3.5 天`. */
export const days = (value: number): string => `${value.toFixed(1)} 天`;

/**
 * `11月24日 周二 17:00（UTC）`: a moment within the next weeks, with its weekday; `–` for none. Spelled out here
 * rather than with Intl so that the words do not depend on the runtime's locale data.
 */
export function weekdayMinute(iso: string | null): string {
  if (iso === null) return '–';
  const time = new Date(iso);
  const clock = time.toISOString().slice(11, 16);
  return `${time.getUTCMonth() + 1}月${time.getUTCDate()}日 ${WEEKDAYS[time.getUTCDay()]} ${clock}（UTC）`;
}

/** One formatter per zone: Intl's numbers in Latin digits, a 24-hour clock and the zone as an offset (`GMT+8`). */
const PARTS_BY_ZONE = new Map<string, Intl.DateTimeFormat>();
const partsIn = (timeZone: string): Intl.DateTimeFormat => {
  let format = PARTS_BY_ZONE.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US-u-nu-latn', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'shortOffset',
    });
    PARTS_BY_ZONE.set(timeZone, format);
  }
  return format;
};

/**
 * `2026年12月3日 14:03（UTC）`, or in another zone `2026年12月3日 22:03（GMT+8）`: an instant as Chinese text writes
 * it, the date, then the time, then the zone in full-width parentheses after the time (docs/glossary-zh.md). The
 * one form of the server (UTC) and of the page script that moves times to the reader's zone
 * (src/scripts/local-times.ts). Intl gives the numbers and the offset only, so the words do not depend on the
 * runtime's Chinese locale data; a zone at offset zero is written `UTC`.
 */
export function chineseMinute(iso: string, timeZone = 'UTC'): string {
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const part of partsIn(timeZone).formatToParts(new Date(iso))) parts[part.type] = part.value;
  const offset = parts.timeZoneName ?? 'UTC';
  const zone = /^(GMT|UTC)([+-]0(:00)?)?$/.test(offset) ? 'UTC' : offset;
  return `${parts.year}年${Number(parts.month)}月${Number(parts.day)}日 ${parts.hour}:${parts.minute}（${zone}）`;
}

/** `2026年11月24日 09:00`: a wall-clock minute as a `datetime-local` input gives it (`2026-11-24T09:00`), no zone. */
export function chineseWallMinute(local: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}:\d{2})/.exec(local);
  return match === null ? local : `${match[1]}年${Number(match[2])}月${Number(match[3])}日 ${match[4]}`;
}

/** `2026年6月10日`: a UTC day as Chinese text writes it. */
export function chineseDay(iso: string): string {
  const day = new Date(iso);
  return `${day.getUTCFullYear()}年${day.getUTCMonth() + 1}月${day.getUTCDate()}日`;
}

/** `1、3、7`. */
export const enumeration = (values: readonly (number | string)[]): string => values.join('、');
