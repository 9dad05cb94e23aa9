/**
 * Intl's formatters, made once per language (or zone) per isolate and kept: a formatter costs far more to make
 * than to use, and the edge has 10 ms of CPU per request (docs/performance.md). Keyed by the language's BCP 47
 * tag (src/core/languages.ts).
 */

const cache = new Map<string, unknown>();
function cached<T>(key: string, make: () => T): T {
  let value = cache.get(key) as T | undefined;
  if (value === undefined) {
    value = make();
    cache.set(key, value);
  }
  return value;
}

/** At most `fractionDigits` decimals; exactly that many when `fixed`: one setting for a number and its plural. */
const digits = (fractionDigits: number, fixed: boolean) => ({
  maximumFractionDigits: fractionDigits,
  minimumFractionDigits: fixed ? fractionDigits : 0,
});

/** Plural rules for numbers written as `numberFormat` writes them (`1.0` is plural in English, `1` is not). */
export const pluralRules = (tag: string, fractionDigits = 3, fixed = false): Intl.PluralRules =>
  cached(`plural:${tag}:${fractionDigits}:${fixed}`, () => new Intl.PluralRules(tag, digits(fractionDigits, fixed)));

/** Numbers with at most `fractionDigits` decimals; exactly that many when `fixed` (`3.0 days`). */
export const numberFormat = (tag: string, fractionDigits = 3, fixed = false): Intl.NumberFormat =>
  cached(`number:${tag}:${fractionDigits}:${fixed}`, () => new Intl.NumberFormat(tag, digits(fractionDigits, fixed)));

/** "6 days ago", "tomorrow": relative times in the language's words (`numeric: 'auto'`). */
export const relativeTimeFormat = (tag: string): Intl.RelativeTimeFormat =>
  cached(`relative:${tag}`, () => new Intl.RelativeTimeFormat(tag, { numeric: 'auto' }));

/** `1, 3 and 7`, `1、3、7`: a list joined as the language joins "and", in the language's style. */
export const andList = (tag: string, style: Intl.ListFormatStyle = 'long'): Intl.ListFormat =>
  cached(`list:${tag}:${style}`, () => new Intl.ListFormat(tag, { type: 'conjunction', style }));

/** A language's name in `tag`'s words (`Chinese`, `英语`). */
export const languageNames = (tag: string): Intl.DisplayNames =>
  cached(`names:${tag}`, () => new Intl.DisplayNames([tag], { type: 'language' }));

/** The numeric parts of an instant in a zone: Latin digits, a 24-hour clock, the zone as an offset (`GMT+8`). */
const numericParts = (timeZone: string): Intl.DateTimeFormat =>
  cached(
    `parts:${timeZone}`,
    () =>
      new Intl.DateTimeFormat('en-US-u-nu-latn', {
        timeZone,
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
        timeZoneName: 'shortOffset',
      }),
  );
/** The names of an instant's weekday and month in a language (`Tue`, `Nov`; `周二`, `11月`). */
const nameParts = (tag: string, timeZone: string): Intl.DateTimeFormat =>
  cached(
    `names:${tag}:${timeZone}`,
    () => new Intl.DateTimeFormat(tag, { timeZone, weekday: 'short', month: 'short' }),
  );

/** An instant's parts, the values of a words file's `formats` patterns (words/README.md, "Dates and times"). */
export function dateParts(tag: string, iso: string, timeZone = 'UTC'): Record<string, string> {
  const instant = new Date(iso);
  const numbers: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const part of numericParts(timeZone).formatToParts(instant)) numbers[part.type] = part.value;
  const names: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const part of nameParts(tag, timeZone).formatToParts(instant)) names[part.type] = part.value;
  const offset = numbers.timeZoneName ?? 'UTC';
  const month = String(Number(numbers.month));
  const day = String(Number(numbers.day));
  return {
    year: numbers.year ?? '',
    month,
    month2: month.padStart(2, '0'),
    monthName: names.month ?? month,
    day,
    day2: day.padStart(2, '0'),
    weekday: names.weekday ?? '',
    hour: numbers.hour ?? '',
    minute: numbers.minute ?? '',
    // A zone at offset zero is written `UTC`, whatever its name (docs/glossary/zh.md).
    zone: /^(GMT|UTC)([+-]0(:00)?)?$/.test(offset) ? 'UTC' : offset,
  };
}

/** A `datetime-local` input's value (`2026-11-24T09:00`, no zone) as parts; null when it is not one. */
export function wallParts(local: string): Record<string, string> | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(local);
  if (match === null) return null;
  const [, year = '', month2 = '', day2 = '', hour = '', minute = ''] = match;
  return { year, month: String(Number(month2)), month2, day: String(Number(day2)), day2, hour, minute };
}
