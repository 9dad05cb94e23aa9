import type { BoardAnswerWords } from './board-answer.ts';
import { TRANSLATIONS } from './i18n/index.ts';
import { languageOf } from './languages.ts';
import type { BoardStatus, EventKind, Locale } from './vocabulary.ts';

/** A symbol beside each status word, so that no status is told by colour alone. */
export const STATUS_SYMBOLS: Readonly<Record<BoardStatus, string>> = {
  reset_now: '●',
  banked: '◆',
  tease: '◔',
  waiting: '○',
  overdue: '▲',
  no_data: '–',
};

/**
 * What the page script that keeps the board's rows current (src/scripts/live-status.ts) is handed as JSON in the
 * page: the locale's words for a row, plain data, so that the script carries no copy of any of them.
 */
export interface LiveStatusWords {
  locale: Locale;
  /** The language's Intl locale and its pattern of an instant (words' `formats.minute`), for the times it draws. */
  tag: string;
  minuteFormat: string;
  answer: BoardAnswerWords;
  statuses: Record<BoardStatus, string>;
  kinds: Record<EventKind, string>;
  symbols: Readonly<Record<BoardStatus, string>>;
}

export const liveStatusWords = (locale: Locale): LiveStatusWords => ({
  locale,
  tag: languageOf(locale).intl,
  minuteFormat: TRANSLATIONS[locale].formats.minutePattern,
  answer: TRANSLATIONS[locale].boardAnswer,
  statuses: TRANSLATIONS[locale].statuses,
  kinds: TRANSLATIONS[locale].kinds,
  symbols: STATUS_SYMBOLS,
});
