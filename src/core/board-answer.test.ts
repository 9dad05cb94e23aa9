import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  daysSinceText,
  fillSegments,
  rowAnswer,
  rowFactsFromApi,
  segmentsAsText,
  statusLegend,
} from './board-answer.ts';
import { TRANSLATIONS } from './i18n/index.ts';
import { MS_PER_DAY, MS_PER_HOUR } from './ordering.ts';
import type { Event } from './schemas.ts';
import { boardAnswersAt, makeEvent, NOW, resetsWithGaps } from './test-events.ts';

const EN = TRANSLATIONS.en.boardAnswer;
const ZH = TRANSLATIONS.zh.boardAnswer;
const iso = (ms: number) => new Date(ms).toISOString();
const daysAgo = (days: number) => iso(NOW.getTime() - days * MS_PER_DAY);
const daysAhead = (days: number) => iso(NOW.getTime() + days * MS_PER_DAY);
/** Instants as ISO, links as `[text](href)`: what a row says, read in one line. */
const read = (segments: Parameters<typeof segmentsAsText>[0]) =>
  segmentsAsText(
    segments,
    (at) => `<${at}>`,
    (href, text) => `[${text}](${href})`,
  );
const answerOf = (events: readonly Event[], locale: 'en' | 'zh' = 'en') => {
  const { rows } = boardAnswersAt(events, NOW);
  const facts = rows.find((row) => row.row.provider === 'provider_a')!;
  const answer = rowAnswer(facts, NOW.getTime(), locale, locale === 'en' ? EN : ZH);
  return {
    status: facts.row.status,
    note: answer.statusNote === null ? null : read(answer.statusNote),
    answer: answer.answer === null ? null : { kind: answer.answer.kind, text: read(answer.answer.parts) },
    estimate: { state: answer.estimate.state, text: read(answer.estimate.parts) },
  };
};

describe('fillSegments', () => {
  it('puts text and segments in place of the placeholders, joining adjacent text', () => {
    expect(fillSegments('Likely between {from} and {to}.', { from: { time: 'A' }, to: 'B' })).toEqual([
      { text: 'Likely between ' },
      { time: 'A' },
      { text: ' and B.' },
    ]);
    expect(fillSegments('{time}', { time: { time: 'A' } })).toEqual([{ time: 'A' }]);
  });

  it('refuses a placeholder without a value: a words file that names one is a bug to stop the build', () => {
    expect(() => fillSegments('at {when}', {})).toThrow(/\{when\}/);
  });
});

describe('one answer per row', () => {
  it('an overdue provider with a forecast: the likely window first, the estimate "passed" with its date', () => {
    // Gaps 10, 11, 12, 13, 20 days; the last reset 19 days ago (over 1.5 × 12): the estimate (median gap, 12 days)
    // passed 7 days ago. Gaps longer than the wait: only 20 days, so the window is 20 to 20 days after the last reset.
    const events = resetsWithGaps([10, 11, 12, 13, 20], 19);
    const row = answerOf(events);
    expect(row.status).toBe('overdue');
    expect(row.answer).toEqual({ kind: 'window', text: `Likely between <${daysAhead(1)}> and <${daysAhead(1)}>` });
    expect(row.estimate).toEqual({ state: 'passed', text: `Cadence estimate passed: <${daysAgo(7)}>` });
    expect(answerOf(events, 'zh').estimate.text).toBe(`节奏估计已过：<${daysAgo(7)}>`);
  });

  it('beyond every recent gap: says there is no likely window, and never "any time now"', () => {
    const row = answerOf(resetsWithGaps([5, 5, 5, 5, 5], 30));
    expect(row.answer).toEqual({ kind: 'beyond_history', text: EN.noWindow });
    expect(row.estimate.state).toBe('passed');
  });

  it('an announced reset leads, linked to its post; the cadence estimate follows', () => {
    const pending = makeEvent({
      id: 'pending',
      announcedAt: daysAgo(0.5),
      effectiveAt: iso(NOW.getTime() + 5 * MS_PER_HOUR),
    });
    const row = answerOf([...resetsWithGaps([7, 7], 3), pending]);
    expect(row.status).toBe('tease');
    expect(row.answer).toEqual({
      kind: 'announced',
      text: `Announced for <${pending.effectiveAt}> (in 5 hours) · [the post](${pending.sourceUrl})`,
    });
    expect(row.estimate).toEqual({ state: 'ahead', text: `Cadence estimate: <${daysAhead(4)}> (in 4 days)` });
  });

  it('a passed tease that is the latest signal is flagged beside the status word, weeks later too', () => {
    const tease = makeEvent({ id: 'tease', kind: 'tease', announcedAt: daysAgo(21), effectiveAt: daysAgo(20) });
    const row = answerOf([...resetsWithGaps([30, 30], 25), tease]);
    expect(row.status).toBe('waiting');
    expect(row.note).toBe(`teased for <${daysAgo(20)}> (20 days ago) · not confirmed · [the post](${tease.sourceUrl})`);
  });

  it('says "none yet" with too little history, and gives no answer', () => {
    expect(answerOf(resetsWithGaps([], 2))).toMatchObject({
      answer: null,
      estimate: { state: 'none', text: EN.estimateNone },
    });
  });

  it('never says "any time now" (or its translation), whatever the history and the moment', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 12 }),
        fc.integer({ min: 0, max: 90 }),
        (gaps, lastDaysAgo) => {
          for (const locale of ['en', 'zh'] as const) {
            const row = answerOf(resetsWithGaps(gaps, lastDaysAgo), locale);
            const said = JSON.stringify(row);
            expect(said).not.toMatch(/any time now|随时/i);
            if (row.estimate.state === 'passed') expect(row.estimate.text).toMatch(/passed|已过/);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('rowFactsFromApi: what the page script knows from /api/status and /api/forecast', () => {
  it('gives the same answer as the page for a passed tease that is the latest signal, and a window', () => {
    const tease = makeEvent({ id: 'tease', kind: 'tease', announcedAt: daysAgo(3), effectiveAt: daysAgo(2) });
    const events = [...resetsWithGaps([6, 7, 8, 9, 10], 6.5), tease];
    const { rows } = boardAnswersAt(events, NOW);
    const page = rows.find((row) => row.row.provider === 'provider_a')!;
    const fromApi = rowFactsFromApi(page.row, page.forecast, NOW.getTime());
    expect(rowAnswer(fromApi, NOW.getTime(), 'en', EN)).toEqual(rowAnswer(page, NOW.getTime(), 'en', EN));
    expect(fromApi.unconfirmed?.event.id).toBe('tease');
  });
});

describe('statusLegend', () => {
  it("explains each of the six status words, with the rule's numbers filled in", () => {
    const legend = statusLegend(EN);
    expect(legend.map((entry) => entry.status)).toEqual([
      'reset_now',
      'banked',
      'tease',
      'waiting',
      'overdue',
      'no_data',
    ]);
    expect(legend.find((entry) => entry.status === 'overdue')?.meaning).toBe(
      'the wait since the last reset is longer than 1.5 × the median gap of the last 10 resets.',
    );
    expect(legend.find((entry) => entry.status === 'tease')?.meaning).toContain('within the last 7 days');
    for (const entry of statusLegend(ZH)) expect(entry.meaning).not.toMatch(/[{}]/);
  });
});

describe('days since the last reset', () => {
  it('is written in the language’s number form with one decimal, a dash without a reset', () => {
    expect(daysSinceText(5.8, 'en-GB')).toBe('5.8');
    expect(daysSinceText(5, 'en-GB')).toBe('5.0');
    expect(daysSinceText(5.8, 'de')).toBe('5,8');
    expect(daysSinceText(12.25, 'fr')).toBe('12,3');
    expect(daysSinceText(0.04, 'pt-BR')).toBe('0,0');
    expect(daysSinceText(null, 'de')).toBe('–');
  });
});
