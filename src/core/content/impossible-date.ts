/**
 * Says what is wrong with a timestamp whose calendar date or clock time does not exist (30 February,
 * month 13, 24:30), which a pattern check alone reports only as "not ISO 8601". Undefined when the date
 * and time exist, or when the text does not even look like a timestamp.
 */
const TIMESTAMP_PARTS = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?/;

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** Days in a month of the Gregorian calendar (month 1–12); day 0 of the next month is its last day. */
const daysInMonth = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

export function impossibleDateTime(value: string): string | undefined {
  const match = TIMESTAMP_PARTS.exec(value);
  if (match === null) return undefined;
  const [, yearText, monthText, dayText, hourText, minuteText, secondText] = match;
  const year = Number(yearText);
  const month = Number(monthText);
  const day = Number(dayText);
  if (month < 1 || month > 12)
    return `the date ${yearText}-${monthText}-${dayText} does not exist: there is no month ${monthText}`;
  const lastDay = daysInMonth(year, month);
  if (day < 1 || day > lastDay) {
    return `the date ${yearText}-${monthText}-${dayText} does not exist: ${MONTH_NAMES[month - 1]} ${year} has ${lastDay} days`;
  }
  if (hourText !== undefined && (Number(hourText) > 23 || Number(minuteText) > 59 || Number(secondText ?? 0) > 59)) {
    return `the time ${hourText}:${minuteText}${secondText === undefined ? '' : `:${secondText}`} does not exist: hours go to 23, minutes and seconds to 59`;
  }
  return undefined;
}
