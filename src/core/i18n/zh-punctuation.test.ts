import { describe, expect, it } from 'vitest';
import { deriveBoard } from '../board.ts';
import { FORECAST_BASES } from '../forecast/schemas.ts';
import { compareNewestFirst } from '../ordering.ts';
import { renderBoardMarkdown } from '../render/markdown.ts';
import { relativeTime } from '../render/relative-time.ts';
import { boardAnswersAt, makeEvent, makeForecast, NOW, resetsWithGaps } from '../test-events.ts';
import { TRANSITIONS } from '../push/due.ts';
import { pushPayload } from '../push/payload.ts';
import { sourceHealthLine, type SourcesResponse } from '../sources.ts';
import { EVENT_KINDS } from '../vocabulary.ts';
import { TRANSLATIONS } from './index.ts';
import { minute, wallMinute, weekdayMinute } from './words.ts';

/**
 * The Chinese proofreading rules (docs/website.md, "Chinese style"; the terms of docs/glossary/zh.md), written here
 * rather than taken from the code under test, checked over every Chinese string the core says: every value of
 * words/zh.json as the code reads it (its functions called with sample arguments, its `{name}` templates filled in, the forecast page's
 * words and the date forms among them), the Chinese Markdown mirror, push notifications, the sources line, the
 * times as the server and the page script write them, and the relative times the Chinese pages show. The rendered
 * pages are checked the same way in tests/zh-pages.test.ts.
 */

const HAN = String.raw`\p{Script=Han}`;
const FULL_WIDTH = '，。：；！？（）“”、';
const RULES: [string, RegExp][] = [
  ['no ASCII , : ; ( ) ? ! next to a Chinese character', new RegExp(`${HAN} *[,:;()?!]|[,:;()?!] *${HAN}`, 'u')],
  ['no ASCII full stop beside a Chinese character', new RegExp(`${HAN}\\.(?![\\w/])|\\.(?= *${HAN})`, 'u')],
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
  [
    'a time names its zone in full-width parentheses right after it (22:03（GMT+8）), never between date and time',
    /(?:UTC|GMT)(?:[+-]\d{1,2}(?::\d{2})?)? +\d{1,2}:\d{2}|\d{1,2}:\d{2} *(?:UTC|GMT)|日 *(?:UTC|GMT)/u,
  ],
];

/**
 * The glossary's choices where a wrong word was once written (docs/glossary/zh.md): the word, then why. A Brier score
 * is 布里尔分数 and never the base rate's own number.
 */
const GLOSSARY: [string, RegExp][] = [
  ['a Brier score is 布里尔分数', /Brier/u],
  ['a Brier score is not called the base rate (基准率的布里尔分数, not 基准率为 0.047)', /基准率(?:分别)?为 *[\d.]/u],
  ['an original post is 原帖', /原始帖子/u],
  ['a feed is 订阅源', /信息源/u],
  ['webhook is written Webhook', /(?<![\w/])webhook(?![\w/])/u],
  ['an event is 公告 to readers', /事件/u],
  ['the Banked status word is 有储备重置卡', /有储备卡/u],
  ['the overdue threshold is 常规间隔, not 逾期', /逾期/u],
];

/** Sample values for the `{name}` placeholders of the words that are templates (boardAnswer, likelyWindow, …). */
const PLACEHOLDER_SAMPLES: Record<string, string> = {
  time: '2026年11月24日 17:00（UTC）',
  from: '2026年11月25日 00:00（UTC）',
  to: '2026年11月28日 00:00（GMT+8）',
  relative: '3 天后',
  detail: 'NotAllowedError',
  platform: 'Slack',
  status: '429',
  teaseDays: '14',
  overdueFactor: '1.5',
  resets: '10',
  // The parts of a date pattern (`formats.minute`, handed to the page scripts).
  year: '2026',
  month: '12',
  month2: '12',
  monthName: '12月',
  day: '3',
  day2: '03',
  weekday: '周四',
  hour: '14',
  minute: '03',
  zone: 'UTC',
};
const fillPlaceholders = (text: string): string =>
  text.replace(/\{(\w+)\}/gu, (_, name: string) => PLACEHOLDER_SAMPLES[name] ?? '示例');

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
  'sourceHealth.failingLong': [[1, 15]],
  'sourceHealth.secondsAgo': [[40]],
  'sourceHealth.minutesAgo': [[4]],
  'sourceHealth.hoursAgo': [[3]],
  'sourceHealth.daysAgo': [[2]],
  'markdown.intro': [[NOW.toISOString()]],
  'markdown.lastReset': [[minute('zh', '2026-06-10T08:00:00Z'), '3.5 天']],
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
  'tracker.converted': [['2026-11-24T09:00', 'Asia/Shanghai', minute('zh', '2026-11-24T01:00:00Z')]],
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
  'push.scheduledFor': [[minute('zh', '2026-11-24T17:00:00Z')]],
  'push.inEffectSince': [[minute('zh', '2026-11-24T17:00:00Z')]],
  'ntfy.choices': [['供应商 A、供应商 C', '重置']],
  'ntfy.activationBody': [
    ['将发送：供应商 A 的每条新公告（重置）。', 'https://board.example/api/ntfy/activate?topic=x&token=y'],
  ],
  'ntfy.pageAsk': [['https://ntfy.sh/my-topic']],
  'forecastPage.byDayDescription': [['18 %', '92 %']],
  'forecastPage.withinDays': [[1], [14]],
  'forecastPage.likelyWindow': [
    [weekdayMinute('zh', '2026-11-25T00:00:00Z'), weekdayMinute('zh', '2026-11-28T00:00:00Z')],
  ],
  'forecastPage.trackSince': [['2026-06-10T08:00:00.000Z', 40]],
  'formats.days': [[3.5]],
  'formats.weekdayMinute': [[FORECAST.announcedFor]],
  'formats.minute': [['2026-12-03T14:03:00.000Z'], ['2026-06-15T00:05:00+08:00']],
  'ui.early': [['4.8 天']],
  'ui.late': [['18.0 天']],
  'ui.historyShow': [[1], [120]],
  'ui.trackShow': [[25]],
  'markdown.estimateBasis': [['17.9 天']],
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
  if (typeof value === 'string') {
    yield [path, value];
    if (/\{\w+\}/u.test(value)) yield [`${path} (filled)`, fillPlaceholders(value)];
  } else if (typeof value === 'function') {
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
  rows: boardAnswersAt(EVENTS, NOW).rows,
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

/** What a Chinese subscriber's browser shows, for every kind and transition; the summary is the post's own English. */
const pushTexts = EVENT_KINDS.flatMap((kind) =>
  TRANSITIONS.flatMap((transition): [string, string][] => {
    const event = makeEvent({ kind, summary: 'SUMMARY', effectiveAt: '2026-06-15T10:30:00.000Z' });
    const payload = pushPayload(event, transition, 'zh', 'https://board.example');
    return [
      [`push ${kind} ${transition} title`, payload.title],
      [`push ${kind} ${transition} body`, payload.body.replace('SUMMARY', '摘要')],
    ];
  }),
);

/** The board's sources line in each state it can be in. */
const sourcesLines = ((): [string, string][] => {
  const source = (ok: boolean) => ({
    provider: 'provider_a' as const,
    name: 'provider_a_eng',
    url: 'https://posts.provider-a.example/feed',
    checkedAt: new Date(NOW.getTime() - 40_000).toISOString(),
    ok,
    error: ok ? null : 'HTTP 503',
    itemsSeen: ok ? 3 : 0,
  });
  const response = (state: SourcesResponse['state'], ageMs: number, failing: number): SourcesResponse => ({
    checkedAt: new Date(NOW.getTime() - ageMs).toISOString(),
    sources: [source(true), source(true), ...Array.from({ length: failing }, () => source(false))],
    state,
  });
  const responses: SourcesResponse[] = [
    response('current', 0, 0),
    response('current', 40_000, 1),
    response('current', 4 * 60_000, 0),
    response('delayed', 3 * 3_600_000, 2),
    response('failing', 40_000, 1),
    { checkedAt: null, sources: [], state: 'unknown' },
  ];
  return responses.map((one): [string, string] => ['sourceHealthLine', sourceHealthLine(one, NOW, 'zh')]);
})();

/** Instants as the server (UTC) and the page script (the reader's zone) write them, and the other date forms. */
const INSTANTS = ['2026-12-03T14:03:00.000Z', '2026-12-31T20:30:00.000Z', '2026-01-01T00:00:00.000Z'];
const ZONES = ['UTC', 'Asia/Shanghai', 'Asia/Kolkata', 'America/New_York', 'Europe/London', 'Pacific/Chatham'];
const dateForms: [string, string][] = [
  ...INSTANTS.flatMap((iso) =>
    ZONES.map((zone): [string, string] => [`chineseMinute ${zone}`, minute('zh', iso, zone)]),
  ),
  ...INSTANTS.map((iso): [string, string] => ['weekdayMinute', weekdayMinute('zh', iso)]),
  ['chineseWallMinute', wallMinute('zh', '2026-11-24T09:00')],
];

const EVERY_STRING: [string, string][] = [
  ...strings(TRANSLATIONS.zh, ''),
  ...markdownLines,
  ...pushTexts,
  ...sourcesLines,
  ...dateForms,
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

describe('Chinese terms (docs/glossary/zh.md)', () => {
  it.each(GLOSSARY)('%s', (_rule, pattern) => {
    const offending = ALL_STRINGS.filter(([, text]) => pattern.test(text)).map(([path, text]) => `${path}: ${text}`);
    expect(offending).toEqual([]);
  });

  it('the rules can fail: the strings users reported are caught', () => {
    const reported = [
      '迄今为止，24 小时内的可能性得分不如基准率（Brier 分数 0.058，基准率为 0.047；越低越好）。',
      '计算于 2026-11-27 17:41 UTC. 状态与相对时间在此刻计算',
      '2026年12月3日 GMT+8 22:03',
      '供应商 A: 根据最近 20 次间隔',
    ];
    for (const text of reported)
      expect([...RULES, ...GLOSSARY].filter(([, pattern]) => pattern.test(text)).length, text).toBeGreaterThan(0);
  });
});
