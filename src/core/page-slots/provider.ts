import { fillSegments } from '../board-answer.ts';
import { statusFromSummary } from '../board.ts';
import { chanceByDay, forecastFromSummary } from '../forecast/rule.ts';
import type { ProviderSummary } from '../history.ts';
import type { ProviderSlotFacts } from '../provider-page.ts';
import { TRANSLATIONS, UI } from '../i18n/index.ts';
import { PROVIDER_LABELS, STATUS_LABELS } from '../i18n/labels.ts';
import { badgeContent, badgeSize } from '../render/badge.ts';
import { escapeHtml, type Html, html } from '../render/html.ts';
import { renderStatusText } from '../render/status-text.ts';
import { rowFacts } from '../upcoming-reset.ts';
import type { Locale, Provider } from '../vocabulary.ts';
import { chanceByDayHtml, gapChartSlots } from './charts.ts';
import { boardTableHtml, computedNoteHtml, forecastSentencesHtml, segmentsHtml, timeHtml } from './fragments.ts';

/**
 * A provider page's slots (slots.ts): its row, forecast, statistics, gap chart and badge at request time. The
 * history, the hours, the track records and the archive change only with the events: Astro renders them, at build
 * time into the page's template and on demand beside these.
 */
export const PROVIDER_SLOTS = [
  'computed',
  'board',
  'forecast',
  'status-text',
  'stats',
  'gaps-scale',
  'gaps-lines',
  'gaps-caption',
  'badge',
] as const;
export type ProviderSlots = Record<(typeof PROVIDER_SLOTS)[number], string>;

export interface ProviderSlotInput {
  locale: Locale;
  provider: Provider;
  summary: ProviderSummary;
  /** The longest gap and the forecast's scores, from the provider page's data (src/core/provider-page.ts). */
  facts: ProviderSlotFacts;
  now: Date;
}

export function providerPageSlots({ locale, provider, summary, facts, now }: ProviderSlotInput): ProviderSlots {
  const text = UI[locale];
  const mark = TRANSLATIONS[locale].markdown.punctuation;
  const row = statusFromSummary(summary, now);
  const forecast = forecastFromSummary(summary, now);
  const chances = chanceByDay(summary, now);
  const days = (value: number | null) => (value === null ? '–' : text.days(value));
  const window = forecast.likelyWindow;
  const likelyWindow =
    window !== null &&
    html`<p data-likely-window>${segmentsHtml(fillSegments(TRANSLATIONS[locale].forecastPage.likelyWindow, { from: { time: window.from }, to: { time: window.to } }), locale)}</p>`;
  const { width, height } = badgeSize(badgeContent(row));
  const badgeAlt = text.badgeAlt(PROVIDER_LABELS[locale][provider], STATUS_LABELS[locale][row.status]);
  const stat = (term: string, value: Html | string | number) => html`<div><dt>${term}</dt><dd>${value}</dd></div>`;
  const gapsNow = gapChartSlots(facts.longestGapDays, row.stats.medianIntervalDays, locale);
  return {
    computed: computedNoteHtml(now.toISOString(), locale).value,
    board: boardTableHtml([rowFacts(summary, row, forecast, now)], now, locale).value,
    forecast:
      html`${forecastSentencesHtml([forecast], locale, { withProvider: false, scores: { [provider]: facts.forecastScores } })}${chances !== null && chanceByDayHtml(chances, locale, `chance-${provider}`)}${likelyWindow}`
        .value,
    'status-text': escapeHtml(renderStatusText([row])),
    stats: html`<dl class="stats">${[
      stat(text.stats.totalResets, row.stats.totalResets),
      stat(text.stats.medianIntervalDays, days(row.stats.medianIntervalDays)),
      stat(text.stats.meanIntervalDays, days(row.stats.meanIntervalDays)),
      stat(text.stats.longestWaitDays, days(row.stats.longestWaitDays)),
      stat(
        text.stats.firstRecordedAt,
        row.stats.firstRecordedAt === null ? '–' : timeHtml(row.stats.firstRecordedAt, locale),
      ),
    ]}</dl>`.value,
    'gaps-scale': gapsNow.scale,
    'gaps-lines': gapsNow.lines,
    'gaps-caption': gapsNow.caption,
    badge:
      html`<p>${text.badge}${mark.afterTitle}<img src="/badge/${provider}.svg" alt="${badgeAlt}" width="${width}" height="${height}"> <code>/badge/${provider}.svg</code></p>`
        .value,
  };
}
