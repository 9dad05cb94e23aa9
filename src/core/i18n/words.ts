import { languageOf, type Locale } from '../languages.ts';
import { FILLED_WORDS } from './filled-words.ts';
import { dateParts, numberFormat, pluralRules, wallParts } from './intl.ts';
import { fillText } from './template.ts';
import type { Words } from './words-files.ts';

export type { Words };

/** Every key of a string in the words, dotted (`ui.nav.board`); plural forms are reached by `PluralKey`. */
type Keys<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string
    ? `${Prefix}${K}`
    : T[K] extends readonly unknown[]
      ? never
      : Keys<T[K], `${Prefix}${K}.`>;
}[keyof T & string];
type AllKeys = Keys<Words>;
export type WordKey = Exclude<AllKeys, `${string}_${'zero' | 'one' | 'two' | 'few' | 'many' | 'other'}`>;
/** A plural key's base: `ui.days` for `ui.days_one` and `ui.days_other`. */
export type PluralKey = AllKeys extends infer K ? (K extends `${infer Base}_other` ? Base : never) : never;

/**
 * The string at a dotted key (`ui.nav.board`, a list's item `ui.aboutPage.terms.0`) in a language's words, read by
 * walking the words themselves: nothing is made per language before its first string is asked for.
 */
function stringAt(locale: Locale, key: string): string | undefined {
  let node: unknown = FILLED_WORDS[locale];
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, part)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** The raw string of a key, English's where a language lacks it (the build refuses that; this is the fallback). */
const raw = (locale: Locale, key: string): string => {
  const own = stringAt(locale, key) ?? stringAt('en', key);
  if (own === undefined) throw new Error(`no words for "${key}" in en.json`);
  return own;
};

type Values = Readonly<Record<string, string | number>>;
const asText = (values: Values): Record<string, string> =>
  Object.fromEntries(Object.entries(values).map(([name, value]) => [name, String(value)]));

/** The words of `key` in a language (its shared constants already filled: filled-words.ts), filled from `values`. */
export const text = (locale: Locale, key: WordKey, values: Values = {}): string =>
  fillText(raw(locale, key), asText(values));

/**
 * The plural form of `key` for `count` (`Intl.PluralRules` of the language), `{count}` written in the language's
 * number form with `fractionDigits` decimals (exactly that many when `fixed`: `1.0 days` is plural in English).
 */
export function plural(
  locale: Locale,
  key: PluralKey,
  count: number,
  values: Values = {},
  fractionDigits = 0,
  fixed = false,
): string {
  const { intl: tag } = languageOf(locale);
  const format = numberFormat(tag, fractionDigits, fixed);
  const written = format.format(count);
  // Chosen by the number as written: `1.0` is "other" in English, `1` is "one".
  const category = pluralRules(tag, fractionDigits, fixed).select(count);
  const chosen = stringAt(locale, `${key}_${category}`) ?? raw(locale, `${key}_other`);
  return fillText(chosen, { ...asText(values), count: written });
}

/** The language's number form of a number (`1,234` in English). */
export const number = (locale: Locale, value: number, fractionDigits = 3, fixed = false): string =>
  numberFormat(languageOf(locale).intl, fractionDigits, fixed).format(value);

/** An instant in a language's form (`formats.minute`), in UTC or another zone. */
export const minute = (locale: Locale, iso: string, timeZone = 'UTC'): string =>
  fillText(raw(locale, 'formats.minute'), dateParts(languageOf(locale).intl, iso, timeZone));
/** An instant within the next weeks, with its weekday (`formats.weekdayMinute`); `–` for none. */
export const weekdayMinute = (locale: Locale, iso: string | null): string =>
  iso === null ? '–' : fillText(raw(locale, 'formats.weekdayMinute'), dateParts(languageOf(locale).intl, iso));
/** A UTC day (`formats.day`). */
export const day = (locale: Locale, iso: string): string =>
  fillText(raw(locale, 'formats.day'), dateParts(languageOf(locale).intl, iso));
/** A `datetime-local` value, a wall-clock minute without a zone (`formats.wallMinute`); as it is if not one. */
export function wallMinute(locale: Locale, local: string): string {
  const parts = wallParts(local);
  return parts === null ? local : fillText(raw(locale, 'formats.wallMinute'), parts);
}
