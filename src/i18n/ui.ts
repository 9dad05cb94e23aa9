import type { Locale } from '../core/vocabulary.ts';

/** The website's words in both languages. Labels of providers, kinds and statuses are in core/vocabulary.ts. */
const en = {
  siteTagline: 'Official usage-limit resets of three AI coding-tool providers, and what their cadence suggests.',
  nav: { board: 'Board', tracker: 'Window tracker', api: 'API', about: 'About' },
  languageSwitch: '中文',
  languageSwitchLabel: 'Read this page in Chinese',
  skipToContent: 'Skip to content',
  boardCaption: 'Usage-limit resets by provider',
  columns: {
    provider: 'Provider',
    status: 'Status',
    lastReset: 'Last reset',
    daysSince: 'Days since',
    nextEstimate: 'Next reset (cadence estimate)',
    latestSignal: 'Latest signal',
  },
  never: 'none recorded',
  noEstimate: 'not enough history',
  anyTimeNow: 'any time now',
  estimateWas: 'estimate was',
  estimateNote:
    'Estimates are the last reset plus the median gap of the last 10 resets: a cadence, not a vendor schedule.',
  computedAt: 'Computed',
  computedNote: 'Status and relative times were computed at this moment; reload for newer.',
  latestHeading: 'Latest announcements',
  originalPost: 'original post',
  permalink: 'permalink',
  scope: { global: 'everyone', plan: (name: string) => `plan: ${name}` },
  effective: 'effective',
  feeds: 'Feeds',
  statsHeading: 'Statistics',
  stats: {
    totalResets: 'Resets recorded',
    medianIntervalDays: 'Median gap (last 10 resets)',
    meanIntervalDays: 'Mean gap',
    longestWaitDays: 'Longest wait',
    firstRecordedAt: 'First recorded',
  },
  days: (value: number) => `${value.toFixed(1)} days`,
  historyHeading: 'History',
  historyTruncated: (shown: number, total: number) =>
    `The newest ${shown.toLocaleString('en')} of ${total.toLocaleString('en')} announcements; every one is in the data files:`,
  hoursHeading: 'Reset announcements by hour of day',
  hoursUtc: 'UTC hours',
  hoursLocal: 'your local hours',
  gapsHeading: 'Gaps between resets',
  gapsMedian: 'median',
  gapsOverdue: 'overdue line (1.5 × median)',
  gapsDescription: (count: number) => `${count} gaps between consecutive resets, in days, oldest first.`,
  trackHeading: 'How the estimate has done',
  trackIntro: 'For each past reset: what the estimate said just before it, by the same rules, and how far off it was.',
  trackColumns: { reset: 'Reset', estimated: 'Estimate said', error: 'Off by' },
  trackMedian: (value: string) => `Median absolute error: ${value}.`,
  trackEmpty: 'Not enough history yet to check the estimate.',
  early: 'early',
  late: 'after the estimate',
  onTime: 'on the estimate',
  notFoundProvider: 'Unknown provider',
  footerTerms:
    'Data as is, without warranty. Not affiliated with the providers. Link back and keep each event’s original post when republishing.',
  badge: 'Status badge',
};

export type UiText = typeof en;

const zh: UiText = {
  siteTagline: '三家 AI 编程工具供应商的官方用量上限重置公告，以及它们的节奏所提示的下一次重置。',
  nav: { board: '看板', tracker: '窗口提醒', api: '接口', about: '关于' },
  languageSwitch: 'English',
  languageSwitchLabel: '阅读本页英文版',
  skipToContent: '跳到正文',
  boardCaption: '各供应商的用量上限重置',
  columns: {
    provider: '供应商',
    status: '状态',
    lastReset: '上次重置',
    daysSince: '已过天数',
    nextEstimate: '下次重置（节奏估计）',
    latestSignal: '最新动态',
  },
  never: '尚无记录',
  noEstimate: '历史不足',
  anyTimeNow: '随时可能',
  estimateWas: '估计时间为',
  estimateNote: '估计值为上次重置时间加上最近 10 次重置间隔的中位数：这只是节奏，并非供应商的时间表。',
  computedAt: '计算于',
  computedNote: '状态与相对时间在此刻计算；刷新页面可获取更新。',
  latestHeading: '最新公告',
  originalPost: '原始帖子',
  permalink: '永久链接',
  scope: { global: '所有用户', plan: (name: string) => `套餐：${name}` },
  effective: '生效',
  feeds: '订阅源',
  statsHeading: '统计',
  stats: {
    totalResets: '已记录的重置',
    medianIntervalDays: '间隔中位数（最近 10 次）',
    meanIntervalDays: '平均间隔',
    longestWaitDays: '最长等待',
    firstRecordedAt: '首次记录',
  },
  days: (value: number) => `${value.toFixed(1)} 天`,
  historyHeading: '历史',
  historyTruncated: (shown: number, total: number) =>
    `此处显示 ${total} 条公告中最新的 ${shown} 条；全部公告见数据文件：`,
  hoursHeading: '重置公告的时段分布',
  hoursUtc: 'UTC 小时',
  hoursLocal: '你的本地小时',
  gapsHeading: '重置间隔',
  gapsMedian: '中位数',
  gapsOverdue: '逾期线（中位数的 1.5 倍）',
  gapsDescription: (count: number) => `相邻两次重置之间的 ${count} 个间隔（天），按时间先后排列。`,
  trackHeading: '估计的准确度',
  trackIntro: '对每一次过去的重置：按同样的规则，重置前一刻的估计是什么，以及偏差多少。',
  trackColumns: { reset: '重置', estimated: '当时的估计', error: '偏差' },
  trackMedian: (value: string) => `绝对误差中位数：${value}。`,
  trackEmpty: '历史尚不足以检验估计。',
  early: '提前',
  late: '晚于估计',
  onTime: '与估计一致',
  notFoundProvider: '未知的供应商',
  footerTerms:
    '数据按原样提供，不作任何保证。本服务与各供应商无关联。转载时请链接回本服务，并保留每条公告的原始帖子链接。',
  badge: '状态徽章',
};

export const UI: Record<Locale, UiText> = { en, zh };

/** The same page in the other language: `/x` ↔ `/zh/x`, `/` ↔ `/zh`. */
export function localizedPath(path: string, locale: Locale): string {
  const english = path === '/zh' ? '/' : path.startsWith('/zh/') ? path.slice(3) : path;
  if (locale === 'en') return english;
  return english === '/' ? '/zh' : `/zh${english}`;
}
