import { describe, expect, it } from 'vitest';
import { deriveBoard } from '../board.ts';
import { FORECAST_BASES } from '../forecast/schemas.ts';
import { compareNewestFirst } from '../ordering.ts';
import { renderBoardMarkdown } from '../render/markdown.ts';
import { relativeTime } from '../render/relative-time.ts';
import { makeEvent, makeForecast, NOW, resetsWithGaps } from '../test-events.ts';
import { zh } from './zh/index.ts';

/**
 * The Chinese proofreading rules (docs/website.md, "Chinese style"), written here rather than taken from the code
 * under test, checked over every Chinese string the service says: every value of zh/index.ts (its functions
 * called with sample arguments, the forecast page's words and the date forms among them), the Chinese Markdown
 * mirror, and the relative times the Chinese pages show.
 */

const HAN = String.raw`\p{Script=Han}`;
const FULL_WIDTH = '，。：；！？（）“”、';
const RULES: [string, RegExp][] = [
  ['no ASCII , : ; ( ) ? ! next to a Chinese character', new RegExp(`${HAN} *[,:;()?!]|[,:;()?!] *${HAN}`, 'u')],
  ['no ASCII full stop after a Chinese character', new RegExp(`${HAN}\\.(?![\\w/])`, 'u')],
  ['quotes are “ ” around Chinese text, not ASCII ones', new RegExp(`${HAN}["']|["']${HAN}`, 'u')],
  ['no corner brackets (the house quotes with “ ”)', /[「」『』]/u],
  [
    'a space between a Chinese character and a Latin letter or digit (dates like 2026年6月10日 aside)',
    new RegExp(`${HAN}[A-Za-z]|[A-Za-z]${HAN}|(?![年月])${HAN}[0-9]|[0-9](?![年月日])${HAN}`, 'u'),
  ],
  [
    'no space beside full-width punctuation (the list separator “ · ” keeps its spaces)',
    new RegExp(` [${FULL_WIDTH}]|[${FULL_WIDTH}] (?!· )`, 'u'),
  ],
  ['no doubled spaces', / {2}/u],
];

const FORECAST = makeForecast();
const EVENTS = [...resetsWithGaps([7, 8, 6, 9], 2), makeEvent({ provider: 'provider_b', kind: 'boost' })].sort(
  compareNewestFirst,
);
const BOARD = deriveBoard(EVENTS, NOW);
const ROWS = BOARD.providers;
const AGO = ['刚刚', '40 秒前', '4 分钟前', '3 小时前'];

/** Sample arguments for each function of the Chinese words, by its key path; a new function needs an entry. */
const SAMPLE_ARGUMENTS: Record<string, unknown[][]> = {
  'sourceHealth.checked': AGO.map((ago) => [ago]),
  'sourceHealth.delayed': AGO.map((ago) => [ago]),
  'sourceHealth.answering': [[3, 4]],
  'sourceHealth.failing': [[1]],
  'sourceHealth.secondsAgo': [[40]],
  'sourceHealth.minutesAgo': [[4]],
  'sourceHealth.hoursAgo': [[3]],
  'sourceHealth.daysAgo': [[2]],
  'markdown.intro': [[NOW.toISOString()]],
  'markdown.lastReset': [['2026-06-10 08:00 UTC', '3.5 天']],
  'markdown.estimate': ROWS.flatMap((row) => [
    [row, NOW.getTime()],
    [row, NOW.getTime() + 30 * 86_400_000],
  ]),
  'windowCalendar.calendarName': [['供应商 A'], ['Provider A']],
  'windowCalendar.summary.resetAt': [['供应商 A']],
  'windowCalendar.summary.weeklyAt': [['供应商 A']],
  'windowCalendar.description.resetAt': [['供应商 A']],
  'windowCalendar.description.weeklyAt': [['供应商 A']],
  'windowCalendar.timeZone': [['Asia/Shanghai']],
  'windowCalendar.alarm.resetAt': [['供应商 A']],
  'windowCalendar.alarm.weeklyAt': [['供应商 A']],
  'tracker.converted': [['2026-11-24T09:00', 'Asia/Shanghai', '2026-11-24 01:00 UTC']],
  'ui.scope.plan': [['Pro'], ['专业版']],
  'ui.days': [[3.5]],
  'ui.historyTruncated': [[50, 120]],
  'ui.gapsDescription': [[12]],
  'ui.trackMedian': [['1.2 天']],
  'ui.badgeAlt': [['供应商 B', '超过常规间隔']],
  'ui.aboutPage.intro': [['Departures Board']],
  'ui.apiPage.mcpTools': [['get_status、get_timeline']],
  'ui.provenance.lag': [[5], [-90], [3000]],
  'push.title': [['供应商 A', '重置']],
  'push.scheduledTitle': [['供应商 A', '重置']],
  'push.effectiveTitle': [['供应商 A', '额度提升']],
  'push.scheduledFor': [['11月24日 周二 17:00 UTC']],
  'push.inEffectSince': [['11月24日 周二 17:00 UTC']],
  'forecastPage.byDayDescription': [['18 %', '92 %']],
  'forecastPage.withinDays': [[1], [14]],
  'forecastPage.likelyWindow': [['11月25日 周三 00:00 UTC', '11月28日 周六 00:00 UTC']],
  'forecastPage.trackSince': [['2026-06-10T08:00:00.000Z', 40]],
  'formats.days': [[3.5]],
  'formats.weekdayMinute': [[FORECAST.announcedFor]],
  'glance.passedAgo': AGO.map((ago) => [ago]),
  'glance.worseThanBaseRate': [
    [['24 小时内'], ['0.057'], ['0.047']],
    [
      ['24 小时内', '7 天内'],
      ['0.245', '1.000'],
      ['0.222', '0.000'],
    ],
  ],
};
for (const basis of FORECAST_BASES)
  SAMPLE_ARGUMENTS[`forecast.sentences.${basis}`] = [[{ ...FORECAST, basis }], [{ ...FORECAST, basis, sampleSize: 0 }]];

/** Every string a words object gives, each with its key path; functions called with their sample arguments. */
function* strings(value: unknown, path: string): Generator<[string, string]> {
  if (typeof value === 'string') yield [path, value];
  else if (typeof value === 'function') {
    const samples = SAMPLE_ARGUMENTS[path];
    if (samples === undefined) throw new Error(`no sample arguments for ${path}`);
    for (const args of samples) yield* strings((value as (...a: unknown[]) => unknown)(...args), path);
  } else if (Array.isArray(value))
    for (const [index, item] of value.entries()) yield* strings(item, `${path}.${index}`);
  else if (typeof value === 'object' && value !== null)
    for (const [key, item] of Object.entries(value)) yield* strings(item, path === '' ? key : `${path}.${key}`);
}

const markdownLines = renderBoardMarkdown({
  board: BOARD,
  events: EVENTS,
  baseUrl: 'https://board.example',
  locale: 'zh',
  sampleData: true,
})
  .split('\n')
  // Event summaries are quoted English text inside the Chinese lines: the rules hold around them, not in them.
  .map((line, index): [string, string] => [
    `markdown line ${index + 1}`,
    line.replace(/(· `[a-z_:]+`：).*?（\[/u, '$1摘要（['),
  ]);

const EVERY_STRING: [string, string][] = [
  ...strings(zh, ''),
  ...markdownLines,
  ...[-6.5 * 86_400_000, -3 * 3_600_000, -5 * 60_000, 2 * 86_400_000].map((delta): [string, string] => [
    'relativeTime',
    relativeTime(NOW.getTime() + delta, NOW.getTime(), 'zh'),
  ]),
];
const ALL_STRINGS = EVERY_STRING.filter(([, text]) => new RegExp(HAN, 'u').test(text));

describe('Chinese punctuation and spacing', () => {
  it('reads many strings (the walk reaches every part)', () => {
    expect(ALL_STRINGS.length).toBeGreaterThan(200);
    expect(ALL_STRINGS.some(([path]) => path.startsWith('markdown line'))).toBe(true);
  });

  it.each(RULES)('%s', (_rule, pattern) => {
    const offending = ALL_STRINGS.filter(([, text]) => pattern.test(text)).map(([path, text]) => `${path}: ${text}`);
    expect(offending).toEqual([]);
  });
});
