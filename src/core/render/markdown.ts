import type { Locale } from '../enums.ts';
import { endpointListings } from '../api/endpoints.ts';
import { type RowFacts, rowAnswer, type Segment, segmentsAsText, statusLegend } from '../board-answer.ts';
import type { Event, StatusResponse } from '../schemas.ts';
import { eventPageUrl, SERVICE_NAME } from '../site.ts';
import { TRANSLATIONS } from '../i18n/index.ts';
import { KIND_LABELS, PROVIDER_LABELS, STATUS_LABELS } from '../i18n/labels.ts';

/** The Markdown mirror of the board (spec 4.6), in English and in Chinese. */

export const MARKDOWN_LATEST_COUNT = 6;

export interface MarkdownInput {
  board: StatusResponse;
  /** Each row's facts for its one answer to "when" (src/core/board-answer.ts), in the board's order. */
  rows: readonly RowFacts[];
  /** Published events, newest first. */
  events: readonly Event[];
  baseUrl: string;
  locale: Locale;
  /** The events are the fictional sample set: the mirror says so before anything else. */
  sampleData: boolean;
}

/** Text from the data never becomes Markdown syntax: links, emphasis, headings, HTML stay literal. */
export const escapeMarkdown = (text: string): string =>
  text.replace(/[\r\n]+/g, ' ').replace(/[\\`*_{}[\]()<>#+\-.!|~]/g, (char) => `\\${char}`);

export function renderBoardMarkdown({ board, rows, events, baseUrl, locale, sampleData }: MarkdownInput): string {
  const text = TRANSLATIONS[locale].markdown;
  // Chinese lines take full-width marks (docs/website.md, "Chinese style"): the locale gives them.
  const { between, end, afterTitle, open, close, comma, pathSeparator } = text.punctuation;
  const nowMs = Date.parse(board.updatedAt);
  const lines = [`# ${SERVICE_NAME}`, ''];
  if (sampleData) lines.push(`**${TRANSLATIONS[locale].sampleDataNotice}**`, '');
  lines.push(`> ${text.intro(board.updatedAt)}`, '', `## ${text.statusHeading}`, '');

  const words = TRANSLATIONS[locale].boardAnswer;
  const asText = (segments: readonly Segment[]) =>
    segmentsAsText(
      segments,
      TRANSLATIONS[locale].formats.minute,
      (href, label) => `[${label}](<${new URL(href).href}>)`,
    );
  for (const facts of rows) {
    const { row } = facts;
    const { statusNote, answer, estimate } = rowAnswer(facts, nowMs, locale, words);
    // Named by label and by id: an agent matches the id against the API, a person reads the label.
    const status = `**${PROVIDER_LABELS[locale][row.provider]}**${open}\`${row.provider}\`${close}${afterTitle}${STATUS_LABELS[locale][row.status]}${open}\`${row.status}\`${close}`;
    const last =
      row.lastReset === null || row.daysSince === null
        ? text.noReset
        : text.lastReset(
            TRANSLATIONS[locale].formats.minute(row.lastReset.effectiveAt ?? row.lastReset.announcedAt),
            TRANSLATIONS[locale].formats.days(row.daysSince),
          );
    // One answer to "when": the vendor's time or the likely window first, the cadence estimate after, named as one.
    const parts = [
      status,
      ...(statusNote === null ? [] : [asText(statusNote)]),
      last,
      ...(answer === null
        ? []
        : [`${asText(answer.parts)}${answer.basis === null ? '' : `${open}${asText(answer.basis)}${close}`}`]),
      `${asText(estimate.parts)}${row.stats.medianIntervalDays === null ? '' : `${comma}${text.estimateBasis(TRANSLATIONS[locale].formats.days(row.stats.medianIntervalDays))}`}`,
    ];
    lines.push(`- ${parts.join(between)}${end}`);
  }

  // Every status word explained where it is shown (decisions.md, "One honest answer").
  lines.push('', `## ${words.legendHeading}`, '');
  for (const { status: word, meaning } of statusLegend(words)) {
    lines.push(`- **${STATUS_LABELS[locale][word]}**${open}\`${word}\`${close}${afterTitle}${meaning}`);
  }

  lines.push('', `## ${text.latestHeading}`, '');
  const latest = events.slice(0, MARKDOWN_LATEST_COUNT);
  if (latest.length === 0) lines.push(text.none);
  for (const event of latest) {
    const label = `${PROVIDER_LABELS[locale][event.provider]}${open}\`${event.provider}\`${close} · ${KIND_LABELS[locale][event.kind]}`;
    // The summary is the post's own (English) text; the parenthesis after it follows the line's language.
    lines.push(
      `- ${TRANSLATIONS[locale].formats.minute(event.announcedAt)} · ${label} · \`${event.scope}\`${afterTitle}${escapeMarkdown(event.summary)}` +
        `${open}[${text.original}](<${new URL(event.sourceUrl).href}>)${comma}[${text.permalink}](<${eventPageUrl(baseUrl, event)}>)${close}`,
    );
  }

  lines.push('', `## ${text.endpointsHeading}`, '');
  for (const endpoint of endpointListings(locale)) {
    const paths = [endpoint.path, ...endpoint.aliases].map((path) => `\`${endpoint.method} ${baseUrl}${path}\``);
    lines.push(`- ${endpoint.title}${afterTitle}${paths.join(pathSeparator)}`);
  }
  lines.push('', text.terms, '');
  return lines.join('\n');
}
