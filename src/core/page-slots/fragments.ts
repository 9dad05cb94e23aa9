import { daysSinceText, type RowFacts, rowAnswer, type Segment } from '../board-answer.ts';
import type { Forecast } from '../forecast/schemas.ts';
import { horizonsWorseThanBaseRate, type ForecastScores } from '../forecast/skill.ts';
import { forecastNote, forecastSentence, worseThanBaseRateNote } from '../forecast/words.ts';
import { TRANSLATIONS, UI } from '../i18n/index.ts';
import { KIND_LABELS, PROVIDER_LABELS, STATUS_LABELS } from '../i18n/labels.ts';
import { fillText } from '../i18n/template.ts';
import { languageOf } from '../languages.ts';
import { STATUS_SYMBOLS } from '../live-status.ts';
import { relativeTime } from '../render/relative-time.ts';
import { type Html, html } from '../render/html.ts';
import { localizedPath } from '../site.ts';
import { sourceHealthLine, type SourcesResponse } from '../sources.ts';
import type { Locale, Provider } from '../vocabulary.ts';

/**
 * The pieces of the board and provider pages that change with the clock or the request, in HTML: the slots of
 * their templates (slots.ts). Astro's render of a page inserts these same strings (`set:html`), so that a page
 * rendered by Astro and one filled in by the edge are the same bytes.
 */

/**
 * An instant in UTC, so the page is honest without JavaScript; the viewer's zone once the script runs
 * (src/scripts/local-times.ts). The same element as src/components/Time.astro.
 */
export const timeHtml = (iso: string, locale: Locale): Html =>
  html`<time datetime="${iso}" data-local>${TRANSLATIONS[locale].formats.minute(iso)}</time>`;

/** A row answer's segments (src/core/board-answer.ts); src/scripts/live-status.ts draws the same in the DOM. */
export const segmentsHtml = (parts: readonly Segment[], locale: Locale): Html =>
  html`${parts.map((part) =>
    'link' in part
      ? html`<a href="${part.link}" rel="noopener nofollow">${part.text}</a>`
      : 'time' in part
        ? timeHtml(part.time, locale)
        : part.text,
  )}`;

const lastResetAt = (row: RowFacts['row']) => row.lastReset?.effectiveAt ?? row.lastReset?.announcedAt ?? null;

function boardRowHtml(facts: RowFacts, nowMs: number, locale: Locale): Html {
  const text = UI[locale];
  const words = TRANSLATIONS[locale].boardAnswer;
  const { row } = facts;
  const { statusNote, answer, estimate } = rowAnswer(facts, nowMs, locale, words);
  const lastAt = lastResetAt(row);
  const providerPath = localizedPath(`/${row.provider}`, locale);
  return html`<tr data-provider="${row.provider}"><th scope="row"><a href="${providerPath}">${PROVIDER_LABELS[locale][row.provider]}</a></th><td data-column="status" data-label="${text.columns.status}"><a class="status" href="#status-${row.status}" data-status="${row.status}" data-symbol="${STATUS_SYMBOLS[row.status]}">${STATUS_LABELS[locale][row.status]}</a>${statusNote !== null && html`<span class="unconfirmed" data-unconfirmed-tease>${segmentsHtml(statusNote, locale)}</span>`}</td><td data-column="next-reset" data-label="${text.columns.nextEstimate}" data-estimate="${estimate.state}">${answer !== null && html`<span class="answer" data-answer="${answer.kind}">${segmentsHtml(answer.parts, locale)}${answer.basis !== null && html`<span class="sub">${segmentsHtml(answer.basis, locale)}</span>`}</span>`}<span class="estimate" data-estimate-line>${segmentsHtml(estimate.parts, locale)}</span></td><td data-column="last-reset" data-label="${text.columns.lastReset}">${lastAt === null ? words.never : html`${relativeTime(Date.parse(lastAt), nowMs, locale)}<span class="sub">${timeHtml(lastAt, locale)}</span>`}</td><td data-column="days-since" data-label="${text.columns.daysSince}">${daysSinceText(row.daysSince, languageOf(locale).intl)}</td><td data-column="latest-signal" data-label="${text.columns.latestSignal}">${row.latestSignal === null ? '–' : html`<a href="${providerPath}#event-${row.latestSignal.id}">${KIND_LABELS[locale][row.latestSignal.kind]}</a><span class="sub">${relativeTime(Date.parse(row.latestSignal.announcedAt), nowMs, locale)}</span>`}</td></tr>`;
}

/**
 * The board's table, one row per provider with its one answer to "when" (decisions.md, "One honest answer"), and
 * when it was computed. Its frame (src/components/BoardTable.astro) hands the page's script the words it redraws the
 * cells with (src/scripts/live-status.ts, every 60 s while the page is open): they change with the language only.
 */
export function boardTableHtml(rows: readonly RowFacts[], now: Date, locale: Locale): Html {
  const text = UI[locale];
  const nowMs = now.getTime();
  return html`<table class="board" data-computed-at="${now.toISOString()}"><caption>${text.boardCaption}</caption><thead><tr><th scope="col">${text.columns.provider}</th><th scope="col">${text.columns.status}</th><th scope="col">${text.columns.nextEstimate}</th><th scope="col">${text.columns.lastReset}</th><th scope="col">${text.columns.daysSince}</th><th scope="col">${text.columns.latestSignal}</th></tr></thead><tbody>${rows.map((facts) => boardRowHtml(facts, nowMs, locale))}</tbody></table>`;
}

/** "Computed at <time>. …": when the page's answers were worked out. */
export function computedNoteHtml(iso: string, locale: Locale): Html {
  const text = UI[locale];
  const mark = TRANSLATIONS[locale].markdown.punctuation;
  return html`<p class="note" id="computed">${text.computedAt} ${timeHtml(iso, locale)}${text.sentenceEnd}${mark.gap}${text.computedNote}</p>`;
}

/** The board's line about its sources (GET /api/sources in a sentence), with the failing ones named. */
export function sourcesLineHtml(sources: SourcesResponse, now: Date, locale: Locale): Html {
  const text = UI[locale];
  const mark = TRANSLATIONS[locale].markdown.punctuation;
  const failing = sources.sources.filter((source) => !source.ok);
  const failingNames = failing
    .map((source) => `${source.name}${mark.open}${source.error ?? ''}${mark.close}`)
    .join(text.listSeparator);
  return html`<p class="note sources" id="sources" data-state="${sources.state}">${sourceHealthLine(sources, now, locale)}${sources.checkedAt !== null && html`${text.sourcesTimeBefore}${timeHtml(sources.checkedAt, locale)}${text.sourcesTimeAfter}`}${text.sentenceEnd}${failing.length > 0 && html`${mark.gap}<span class="failing">${text.sourcesFailing}${mark.gap}${failingNames}${text.sentenceEnd}</span>`}${mark.gap}<a href="/api/sources">${text.sourcesDetails}</a></p>`;
}

/**
 * The forecast in a sentence per provider. On the board each names its provider and links to its page; a provider
 * page shows its own alone. Where the forecast's Brier scores are worse than the base rate's, the sentence says so.
 */
export function forecastSentencesHtml(
  forecasts: readonly Forecast[],
  locale: Locale,
  {
    withProvider = true,
    scores = {},
  }: { withProvider?: boolean; scores?: Partial<Record<Provider, ForecastScores>> } = {},
): Html {
  const mark = TRANSLATIONS[locale].markdown.punctuation;
  const item = (forecast: Forecast) => {
    const providerScores = scores[forecast.provider];
    // Only a sentence with numbers in it (a `cadence` basis) gets the caution beside them.
    const note =
      forecast.basis !== 'cadence' || providerScores === undefined
        ? null
        : worseThanBaseRateNote(providerScores, locale);
    const worse =
      note === null || providerScores === undefined
        ? null
        : html`${mark.gap}<strong class="worse-than-base-rate" data-worse-than-base-rate="${horizonsWorseThanBaseRate(providerScores).join(' ')}">${note}</strong>`;
    const named =
      withProvider &&
      html`<a href="${localizedPath(`/${forecast.provider}`, locale)}">${PROVIDER_LABELS[locale][forecast.provider]}</a>${mark.afterTitle}`;
    return html`<li data-provider="${forecast.provider}" data-forecast-basis="${forecast.basis}">${named}<span data-forecast-sentence>${forecastSentence(forecast, locale)}</span>${worse}</li>`;
  };
  return html`<ul class="forecasts">${forecasts.map(item)}</ul><p class="note">${forecastNote(locale)}</p>`;
}

/** The reader's own language, suggested at the top of the page in its words with a link: never a redirect. */
export function languageSuggestionHtml(suggest: Locale, path: string): Html {
  const language = languageOf(suggest);
  const text = UI[suggest];
  return html`<p class="language-suggestion" lang="${language.tag}" data-language-suggestion="${suggest}">${fillText(text.suggestLanguage, { language: language.name })} <a href="${localizedPath(path, suggest)}" hreflang="${language.tag}">${fillText(text.suggestLanguageLink, { language: language.name })}</a></p>`;
}
