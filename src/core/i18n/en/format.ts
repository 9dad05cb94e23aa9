/** English number and date forms the words share. */

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `3.5 days`. */
export const days = (value: number): string => `${value.toFixed(1)} days`;

/**
 * `Tue 24 Nov 17:00 UTC`: a moment within the next weeks, with its weekday; `–` for none. Spelled out here
 * rather than with Intl so that the words do not depend on the runtime's locale data.
 */
export function weekdayMinute(iso: string | null): string {
  if (iso === null) return '–';
  const time = new Date(iso);
  const clock = time.toISOString().slice(11, 16);
  return `${WEEKDAYS[time.getUTCDay()]} ${time.getUTCDate()} ${MONTHS[time.getUTCMonth()]} ${clock} UTC`;
}

/** `1, 3 and 7`. */
export const andList = (values: readonly (number | string)[]): string =>
  values.length < 2 ? values.join('') : `${values.slice(0, -1).join(', ')} and ${values.at(-1)}`;
