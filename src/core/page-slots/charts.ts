import type { ResetGap } from '../board.ts';
import { percent } from '../i18n/format.ts';
import { TRANSLATIONS, UI } from '../i18n/index.ts';
import { type Html, html, trustedHtml } from '../render/html.ts';
import { OVERDUE_FACTOR } from '../status-word.ts';
import type { Locale } from '../vocabulary.ts';

/**
 * The provider page's two charts that change with the clock: the gaps between resets (its median and overdue lines
 * move when a pending reset takes effect) and the chance of a reset by day. SVG with a text equivalent each.
 */

/** The gaps chart's three slots: its scale (and the top of its axis), its median and overdue lines, their caption. */
export interface GapChartSlots {
  scale: string;
  lines: string;
  caption: string;
}

const GAPS = { width: 720, height: 200, left: 36, bottom: 24, top: 8 } as const;
const GAPS_BASELINE = GAPS.height - GAPS.bottom;

/**
 * What the gaps chart draws at request time: the median and the overdue line move when a pending reset takes effect,
 * and the overdue line may set the chart's height in days, so the scale of the bars is a slot too. The bars are drawn
 * in days (`gapChartHtml`) inside the group this opens, which a matrix scales to the chart's pixels; the template
 * closes the group.
 */
export function gapChartSlots(longestGapDays: number, medianDays: number | null, locale: Locale): GapChartSlots {
  const text = UI[locale];
  // The locale's marks: `: `, `; ` and ` (…)` in English, `：`, `；` and `（…）` in Chinese.
  const mark = TRANSLATIONS[locale].markdown.punctuation;
  const overdueDays = medianDays === null ? null : medianDays * OVERDUE_FACTOR;
  const top = Math.max(1, longestGapDays, overdueDays ?? 0) * 1.1;
  const pixelsPerDay = (GAPS_BASELINE - GAPS.top) / top;
  const y = (days: number) => GAPS_BASELINE - days * pixelsPerDay;
  const line = (kind: 'median' | 'overdue', days: number, label: string) =>
    html`<line class="${kind}" x1="${GAPS.left}" x2="${GAPS.width}" y1="${y(days)}" y2="${y(days)}"><title>${label}${mark.afterTitle}${text.days(days)}</title></line>`;
  // The lines named where they are drawn, not only in the caption.
  const lineLabel = (kind: 'median' | 'overdue', days: number, label: string) =>
    html`<text class="line-label" data-line="${kind}" x="${GAPS.width - 4}" y="${y(days) - 4}" text-anchor="end">${label}${mark.afterTitle}${text.days(days)}</text>`;
  const lines =
    medianDays === null || overdueDays === null
      ? html``
      : html`${line('median', medianDays, text.gapsMedian)}${line('overdue', overdueDays, text.gapsOverdue)}${lineLabel('median', medianDays, text.gapsMedian)}${lineLabel('overdue', overdueDays, text.gapsOverdue)}`;
  const caption =
    medianDays === null || overdueDays === null
      ? ''
      : `${mark.gap}${text.gapsMedian}${mark.afterTitle}${text.days(medianDays)}${mark.open}—${mark.close}${mark.between}${text.gapsOverdue}${mark.afterTitle}${text.days(overdueDays)}${mark.open}- -${mark.close}${text.sentenceEnd}`;
  return {
    scale:
      html`<text x="0" y="${y(top / 1.1) + 4}">${Math.round(top / 1.1)}</text><g class="bars" transform="matrix(1 0 0 ${-pixelsPerDay} 0 ${GAPS_BASELINE})">`
        .value,
    lines: lines.value,
    caption: html`${caption}`.value,
  };
}

/**
 * The gaps between resets, one bar each, with the median and the overdue line: everything but `slots`
 * (`gapChartSlots`) depends only on the gaps, so the build draws it into the page's template. On a phone the chart
 * keeps its drawn size and scrolls inside its frame; the cue (shown only there) says so. The frame takes the
 * keyboard focus so that it can be scrolled without a pointer too.
 */
export function gapChartHtml(gaps: readonly ResetGap[], locale: Locale, id: string, slots: GapChartSlots): Html {
  const text = UI[locale];
  const mark = TRANSLATIONS[locale].markdown.punctuation;
  const { width: WIDTH, height: HEIGHT, left: LEFT } = GAPS;
  const slot = gaps.length === 0 ? 0 : (WIDTH - LEFT) / gaps.length;
  const labelEvery = Math.max(1, Math.ceil(gaps.length / 8));
  // A month label ("2026-11") is about 50 px wide at 11 px: one that would run past the right edge ends there.
  const LABEL_ROOM = 56;
  const bars = gaps.map(
    (gap, index) =>
      html`<rect class="bar" x="${LEFT + index * slot + 1}" y="0" width="${Math.max(1, slot - 2)}" height="${gap.days}"><title>${gap.endedAt.slice(0, 10)}${mark.afterTitle}${text.days(gap.days)}</title></rect>`,
  );
  const labels = gaps.map((gap, index) => {
    if (index % labelEvery !== 0) return null;
    const x = LEFT + index * slot;
    const [at, anchor] = x + LABEL_ROOM > WIDTH ? [WIDTH - 2, 'end'] : [x, 'start'];
    return html`<text data-axis="x" x="${at}" y="${HEIGHT - 6}" text-anchor="${anchor}">${gap.endedAt.slice(0, 7)}</text>`;
  });
  const raw = trustedHtml;
  return html`<p class="scroll-cue">${TRANSLATIONS[locale].glance.scrollCue}</p><figure class="chart" data-chart="gaps" data-scrolls tabindex="0"><svg width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${id}-title ${id}-desc"><title id="${id}-title">${text.gapsHeading}</title><desc id="${id}-desc">${text.gapsDescription(gaps.length)}</desc><line class="axis" x1="${LEFT}" y1="${GAPS_BASELINE}" x2="${WIDTH}" y2="${GAPS_BASELINE}"></line><text x="0" y="${GAPS_BASELINE}">0</text>${raw(slots.scale)}${bars}</g>${labels}${raw(slots.lines)}</svg><figcaption>${text.gapsDescription(gaps.length)}${raw(slots.caption)}</figcaption></figure>`;
}

/**
 * The chance of a reset within 1, 2, … days (chanceByDay: each in [0, 1], non-decreasing), 288 px wide: what a
 * 320 px phone leaves it, so that all 14 days show without scrolling. The numbers belong to the caption: a figure's
 * caption comes first or last (HTML, "the figure element").
 */
export function chanceByDayHtml(chances: readonly number[], locale: Locale, id: string): Html {
  const words = TRANSLATIONS[locale].forecastPage;
  const mark = TRANSLATIONS[locale].markdown.punctuation;
  const WIDTH = 288;
  const HEIGHT = 170;
  const LEFT = 40;
  const BOTTOM = 22;
  const TOP = 8;
  const plotHeight = HEIGHT - BOTTOM - TOP;
  const slot = (WIDTH - LEFT) / chances.length;
  const y = (chance: number) => TOP + (1 - chance) * plotHeight;
  const description = words.byDayDescription(percent(chances[0] ?? 0), percent(chances.at(-1) ?? 0));
  const ticks = [0, 0.5, 1].map(
    (tick) =>
      html`<line class="axis" x1="${LEFT}" x2="${WIDTH}" y1="${y(tick)}" y2="${y(tick)}"></line><text x="0" y="${y(tick) + 4}">${percent(tick)}</text>`,
  );
  const bars = chances.map(
    (chance, index) =>
      html`<rect class="bar" x="${LEFT + index * slot + 2}" y="${y(chance)}" width="${slot - 4}" height="${Math.max(0, plotHeight + TOP - y(chance))}"><title>${words.withinDays(index + 1)}${mark.afterTitle}${percent(chance)}</title></rect>`,
  );
  const days = chances.map(
    (_, index) =>
      html`<text x="${LEFT + index * slot + slot / 2}" y="${HEIGHT - 6}" text-anchor="middle">${index + 1}</text>`,
  );
  const rows = chances.map(
    (chance, index) => html`<tr><td>${words.withinDays(index + 1)}</td><td>${percent(chance)}</td></tr>`,
  );
  return html`<figure class="chart chart-small" data-chart="chance-by-day"><svg width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${id}-title ${id}-desc"><title id="${id}-title">${words.byDayTitle}</title><desc id="${id}-desc">${description}</desc>${ticks}${bars}${days}</svg><figcaption>${description}<details><summary>${words.showTable}</summary><table class="data"><thead><tr><th scope="col">${words.withinColumn}</th><th scope="col">${words.chanceColumn}</th></tr></thead><tbody>${rows}</tbody></table></details></figcaption></figure>`;
}
