import { MEDIAN_BASIS_RESETS, MIN_FORECAST_GAPS } from '../cadence.ts';
import { TIMELINE_LIMIT } from '../api/query.ts';
import { CHANCE_BY_DAY_DAYS, FORECAST_HORIZONS } from '../forecast/schemas.ts';
import { languageOf, type Locale } from '../languages.ts';
import { FEED_ITEM_LIMIT } from '../render/feed-formats.ts';
import { SERVICE_NAME } from '../site.ts';
import { OVERDUE_FACTOR } from '../status-word.ts';
import { REMINDER_MINUTES_BEFORE } from '../tracker/window-link.ts';
import { leaves } from './check.ts';
import { andList, dateParts, numberFormat, pluralRules, wallParts } from './intl.ts';
import { fillText } from './template.ts';
import de from './words/de.json' with { type: 'json' };
import en from './words/en.json' with { type: 'json' };
import es from './words/es.json' with { type: 'json' };
import fr from './words/fr.json' with { type: 'json' };
import ja from './words/ja.json' with { type: 'json' };
import ko from './words/ko.json' with { type: 'json' };
import ptBR from './words/pt-BR.json' with { type: 'json' };
import zh from './words/zh.json' with { type: 'json' };

/**
 * Each language's words file (words/README.md), by the codes of src/core/languages.ts: a language listed there
 * without its file here is a type error. The files are checked against en.json by the build
 * (src/integrations/checked-words.ts) and the tests, so they are read here as they are.
 */
export const WORDS_FILES: Readonly<Record<Locale, unknown>> = { en, zh, ja, ko, es, de, fr, 'pt-BR': ptBR };

/** The reference words (en.json): every language has exactly these keys. */
export type Words = typeof en;

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

const flat = new Map<Locale, Map<string, string>>();
/** A language's strings by dotted key, made once per isolate. */
function strings(locale: Locale): Map<string, string> {
  let map = flat.get(locale);
  if (map === undefined) {
    map = leaves(WORDS_FILES[locale]);
    flat.set(locale, map);
  }
  return map;
}

const constants = new Map<Locale, Record<string, string>>();
/** The values of the placeholders every string may name (words/README.md), in the language's number forms. */
export function constantValues(locale: Locale): Record<string, string> {
  let values = constants.get(locale);
  if (values === undefined) {
    const { intl: tag, listStyle } = languageOf(locale);
    const number = (value: number) => numberFormat(tag).format(value);
    values = {
      service: SERVICE_NAME,
      medianBasisResets: number(MEDIAN_BASIS_RESETS),
      minForecastGaps: number(MIN_FORECAST_GAPS),
      overdueFactor: number(OVERDUE_FACTOR),
      reminderMinutes: number(REMINDER_MINUTES_BEFORE),
      feedItemLimit: number(FEED_ITEM_LIMIT),
      timelineMin: number(TIMELINE_LIMIT.min),
      timelineMax: number(TIMELINE_LIMIT.max),
      timelineDefault: number(TIMELINE_LIMIT.default),
      chanceByDayDays: number(CHANCE_BY_DAY_DAYS),
      horizonDays: andList(tag, listStyle).format(Object.values(FORECAST_HORIZONS).map(number)),
    };
    constants.set(locale, values);
  }
  return values;
}

/** The words with the placeholders `values` names filled, and any other left as it is (for a page script). */
export const fillSome = (words: string, values: Readonly<Record<string, string>>): string =>
  words.replace(/\{(\w+)\}/g, (placeholder, name: string) => values[name] ?? placeholder);

/** The raw string of a key, English's where a language lacks it (the build refuses that; this is the fallback). */
const raw = (locale: Locale, key: string): string => {
  const own = strings(locale).get(key) ?? strings('en').get(key);
  if (own === undefined) throw new Error(`no words for "${key}" in en.json`);
  return own;
};

type Values = Readonly<Record<string, string | number>>;
const asText = (values: Values): Record<string, string> =>
  Object.fromEntries(Object.entries(values).map(([name, value]) => [name, String(value)]));

/** The words of `key` in a language, its placeholders filled from `values` and the shared constants. */
export const text = (locale: Locale, key: WordKey, values: Values = {}): string =>
  fillText(raw(locale, key), { ...constantValues(locale), ...asText(values) });

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
  const chosen = strings(locale).get(`${key}_${category}`) ?? raw(locale, `${key}_other`);
  return fillText(chosen, { ...constantValues(locale), ...asText(values), count: written });
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
