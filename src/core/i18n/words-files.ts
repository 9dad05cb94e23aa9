import { MEDIAN_BASIS_RESETS, MIN_FORECAST_GAPS } from '../cadence.ts';
import { TIMELINE_LIMIT } from '../api/query.ts';
import { CHANCE_BY_DAY_DAYS, FORECAST_HORIZONS } from '../forecast/schemas.ts';
import { LANGUAGES, languageOf, type Locale } from '../languages.ts';
import { FEED_ITEM_LIMIT } from '../render/feed-formats.ts';
import { SERVICE_NAME } from '../site.ts';
import { OVERDUE_FACTOR } from '../status-word.ts';
import { REMINDER_MINUTES_BEFORE } from '../tracker/window-link.ts';
import { andList, numberFormat } from './intl.ts';
import type en from './words/en.json';

/**
 * A listed language's words file, `words/<code>.json`. A language listed without it stops whatever loads the words
 * (the build and the dev server as their configuration loads, a command, a test), naming the file and the fix.
 */
export async function readWordsFile(code: Locale): Promise<unknown> {
  try {
    const file: { default: unknown } = await import(`./words/${code}.json`, { with: { type: 'json' } });
    return file.default;
  } catch (error) {
    throw new Error(
      `src/core/languages.ts lists the language ${code}, but src/core/i18n/words/${code}.json cannot be read: add it (a copy of en.json, translated: src/core/i18n/words/README.md). ${String(error)}`,
    );
  }
}

/**
 * Each language's words file (words/README.md), found by the codes of src/core/languages.ts: a language is its file
 * and its line there, and nothing here names one. Only the build (which puts the filled words in the bundle as data:
 * filled-words.ts), the dev server and Node read this module. The files are checked against en.json by the build
 * (src/integrations/checked-words.ts) and the tests, so they are read here as they are.
 */
export const WORDS_FILES: Readonly<Record<Locale, unknown>> = Object.fromEntries(
  await Promise.all(LANGUAGES.map(async ({ code }) => [code, await readWordsFile(code)] as const)),
) as Record<Locale, unknown>;

/** The reference words (en.json): every language has exactly these keys. */
export type Words = typeof en;

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
