import type { HomePageView } from '../home-page.ts';
import { renderStatusText } from '../render/status-text.ts';
import { escapeHtml } from '../render/html.ts';
import type { SourcesResponse } from '../sources.ts';
import type { Locale } from '../vocabulary.ts';
import {
  boardTableHtml,
  computedNoteHtml,
  forecastSentencesHtml,
  languageSuggestionHtml,
  sourcesLineHtml,
} from './fragments.ts';

/** The board page's slots (slots.ts): everything on it that the clock or the request changes. */
export const BOARD_SLOTS = ['suggestion', 'board', 'computed', 'sources', 'forecasts', 'status-text'] as const;
export type BoardSlots = Record<(typeof BOARD_SLOTS)[number], string>;

export interface BoardSlotInput {
  locale: Locale;
  view: HomePageView;
  sources: SourcesResponse;
  now: Date;
  /** The reader's language when the site has it and it is not the page's (English's board only), else null. */
  suggest: Locale | null;
}

/** The board page's slots at `now`, in HTML: what Astro's render inserts, and what the edge fills a template with. */
export function boardPageSlots({ locale, view, sources, now, suggest }: BoardSlotInput): BoardSlots {
  return {
    suggestion: suggest === null ? '' : languageSuggestionHtml(suggest, '/').value,
    board: boardTableHtml(view.rows, now, locale).value,
    computed: computedNoteHtml(view.board.updatedAt, locale).value,
    sources: sourcesLineHtml(sources, now, locale).value,
    forecasts: forecastSentencesHtml(view.forecasts, locale, { scores: view.forecastScores }).value,
    'status-text': escapeHtml(renderStatusText(view.board.providers)),
  };
}
