import { MEDIAN_BASIS_RESETS } from './cadence.ts';
import type { Forecast } from './forecast/schemas.ts';
import type { Words } from './i18n/words.ts';
import { effectiveMs } from './ordering.ts';
import { fillTemplate, fillText } from './i18n/template.ts';
import { relativeTime } from './render/relative-time.ts';
import type { ProviderStatus } from './schemas.ts';
import { OVERDUE_FACTOR, TEASE_FRESHNESS_MS } from './status-word.ts';
import { type UnconfirmedTease, unconfirmedTeaseOf } from './unconfirmed-tease.ts';
import { BOARD_STATUSES, type BoardStatus, type Locale } from './vocabulary.ts';
import { numberFormat } from './i18n/intl.ts';

/**
 * One answer to "when" per provider (decisions.md, "One honest answer"): the vendor's announced or teased time
 * when there is one, else the forecast's likely window; the cadence estimate under it, named as such, "passed"
 * with its date once it has; and a passed tease flagged beside the status word. Never "any time now".
 *
 * The answer is a list of segments (text, an instant, a link) that each place draws its own way: the board and
 * provider pages in HTML (src/core/page-slots/fragments.ts), the page script that keeps rows current in the DOM
 * (src/scripts/live-status.ts), the Markdown mirror in text. The words are plain data (`boardAnswer` in each
 * locale's folder), so the script is handed them as JSON and never carries a second copy.
 */

/**
 * Days since the last reset as the board's column writes it, in the language's number form with one decimal
 * (`5.8`, `5,8`): the page (src/core/page-slots/fragments.ts) and its script (src/scripts/live-status.ts) alike.
 */
export const daysSinceText = (daysSince: number | null, tag: string): string =>
  daysSince === null ? '–' : numberFormat(tag, 1, true).format(daysSince);

export type Segment = { text: string } | { time: string } | { link: string; text: string };
export type BoardAnswerWords = Words['boardAnswer'];

/**
 * The words' `{name}` placeholders filled with segments (src/core/i18n/template.ts), adjacent text joined and empty
 * text left out.
 */
export function fillSegments(template: string, values: Readonly<Record<string, Segment | string>>): Segment[] {
  const segments: Segment[] = [];
  const parts = fillTemplate<Segment | string>(template, values, (text) => text);
  for (const part of parts.map((value) => (typeof value === 'string' ? { text: value } : value))) {
    const last = segments.at(-1);
    const isText = (segment: Segment | undefined): segment is { text: string } =>
      segment !== undefined && 'text' in segment && !('link' in segment);
    if (isText(part) && part.text === '') continue;
    if (isText(part) && isText(last)) segments[segments.length - 1] = { text: last.text + part.text };
    else segments.push(part);
  }
  return segments;
}

/** The legend's numbers, filled into each locale's sentences. */
const LEGEND_VALUES = {
  teaseDays: String(TEASE_FRESHNESS_MS / 86_400_000),
  overdueFactor: String(OVERDUE_FACTOR),
  resets: String(MEDIAN_BASIS_RESETS),
};

/** Each status word beside what it means, in the enumeration's order. */
export const statusLegend = (words: BoardAnswerWords): { status: BoardStatus; meaning: string }[] =>
  BOARD_STATUSES.map((status) => ({
    status,
    meaning: fillText(words.legend[status], LEGEND_VALUES),
  }));

/** What a row's answer is made from, at one moment. */
export interface RowFacts {
  row: ProviderStatus;
  forecast: Forecast | null;
  /** A reset the vendor announced or teased for a later time, with the post that says so. */
  upcoming: { basis: 'announced' | 'teased'; at: string; sourceUrl: string | null } | null;
  unconfirmed: UnconfirmedTease | null;
}

export type AnswerKind = 'announced' | 'teased' | 'window' | 'beyond_history';
export type EstimateState = 'none' | 'ahead' | 'passed';

export interface RowAnswer {
  /** Beside the status word: a tease whose time passed with no reset after it. */
  statusNote: Segment[] | null;
  /** The one answer to "when", or null when there is none (too little history). */
  answer: { kind: AnswerKind; parts: Segment[]; basis: Segment[] | null } | null;
  /** The cadence estimate, named as such. */
  estimate: { state: EstimateState; parts: Segment[] };
}

export function rowAnswer(facts: RowFacts, nowMs: number, locale: Locale, words: BoardAnswerWords): RowAnswer {
  const relative = (iso: string) => relativeTime(Date.parse(iso), nowMs, locale);
  const { row, forecast, upcoming, unconfirmed } = facts;

  let statusNote: Segment[] | null = null;
  if (unconfirmed !== null) {
    statusNote =
      unconfirmed.at === null
        ? fillSegments(words.unconfirmedNoTime, { relative: relative(unconfirmed.event.announcedAt) })
        : fillSegments(words.unconfirmed, { time: { time: unconfirmed.at }, relative: relative(unconfirmed.at) });
    statusNote.push({ text: ' · ' }, { link: unconfirmed.event.sourceUrl, text: words.post });
  }

  let answer: RowAnswer['answer'] = null;
  if (upcoming !== null) {
    const parts = fillSegments(words[upcoming.basis], { time: { time: upcoming.at }, relative: relative(upcoming.at) });
    if (upcoming.sourceUrl !== null) parts.push({ text: ' · ' }, { link: upcoming.sourceUrl, text: words.post });
    answer = { kind: upcoming.basis, parts, basis: null };
  } else if (forecast?.likelyWindow != null) {
    const { from, to } = forecast.likelyWindow;
    answer = {
      kind: 'window',
      parts: fillSegments(words.likely, { from: { time: from }, to: { time: to } }),
      basis: [{ text: words.likelyBasis }],
    };
  } else if (forecast?.basis === 'beyond_history') {
    answer = { kind: 'beyond_history', parts: [{ text: words.noWindow }], basis: null };
  }

  const at = row.nextEstimate;
  const estimate: RowAnswer['estimate'] =
    at === null
      ? { state: 'none', parts: [{ text: words.estimateNone }] }
      : Date.parse(at) <= nowMs
        ? { state: 'passed', parts: fillSegments(words.estimatePassed, { time: { time: at } }) }
        : { state: 'ahead', parts: fillSegments(words.estimateAhead, { time: { time: at }, relative: relative(at) }) };
  return { statusNote, answer, estimate };
}

/**
 * The facts as the page script has them, from `/api/status` and `/api/forecast` alone: the vendor's time is the
 * forecast's `announcedFor`, linked to the latest signal when that is the post that named it; the newest tease is
 * known only as the latest signal (a live tease under a later signal of another kind is flagged by the page as
 * rendered, and no longer after the script redraws the row).
 */
export function rowFactsFromApi(row: ProviderStatus, forecast: Forecast | null, nowMs: number): RowFacts {
  const signal = row.latestSignal;
  let upcoming: RowFacts['upcoming'] = null;
  if ((forecast?.basis === 'announced' || forecast?.basis === 'teased') && forecast.announcedFor !== null) {
    const named = signal !== null && effectiveMs(signal) === Date.parse(forecast.announcedFor);
    upcoming = { basis: forecast.basis, at: forecast.announcedFor, sourceUrl: named ? signal.sourceUrl : null };
  }
  const unconfirmed = unconfirmedTeaseOf({
    newestTease: signal?.kind === 'tease' ? signal : null,
    latestSignal: signal,
    lastReset: row.lastReset,
    hasPendingReset: forecast?.basis === 'announced',
    nowMs,
  });
  return { row, forecast, upcoming, unconfirmed };
}

/** Segments as plain text: instants by `writeTime`, links by `writeLink` (the Markdown mirror, MCP notes). */
export const segmentsAsText = (
  segments: readonly Segment[],
  writeTime: (iso: string) => string,
  writeLink: (href: string, text: string) => string = (_href, text) => text,
): string =>
  segments
    .map((segment) =>
      'link' in segment
        ? writeLink(segment.link, segment.text)
        : 'time' in segment
          ? writeTime(segment.time)
          : segment.text,
    )
    .join('');
