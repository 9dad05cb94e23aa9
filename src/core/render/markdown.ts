import type { Locale } from '../enums.ts';
import { KIND_LABELS, PROVIDER_LABELS, STATUS_LABELS } from '../enums.ts';
import { MACHINE_READABLE_ENDPOINTS } from '../api/endpoints.ts';
import type { Event, ProviderStatus, StatusResponse } from '../schemas.ts';
import { eventPageUrl, SERVICE_NAME } from '../site.ts';
import { utcMinute } from './labels.ts';

/** The Markdown mirror of the board (spec 4.6), in English and in Chinese. */

export const MARKDOWN_LATEST_COUNT = 6;

export interface MarkdownInput {
  board: StatusResponse;
  /** Published events, newest first. */
  events: readonly Event[];
  baseUrl: string;
  locale: Locale;
}

/** Text from the data never becomes Markdown syntax: links, emphasis, headings, HTML stay literal. */
export const escapeMarkdown = (text: string): string =>
  text.replace(/[\r\n]+/g, ' ').replace(/[\\`*_{}[\]()<>#+\-.!|~]/g, (char) => `\\${char}`);

const days = (value: number, locale: Locale) =>
  locale === 'en' ? `${value.toFixed(1)} days` : `${value.toFixed(1)} 天`;

const TEXT = {
  en: {
    intro: (updatedAt: string) =>
      `Official usage-limit reset announcements of three AI coding-tool providers, each linked to its original post, with a cadence estimate of the next reset. Generated ${utcMinute(updatedAt)}. Not affiliated with the providers; data offered as is.`,
    statusHeading: 'Status',
    noReset: 'no reset recorded yet',
    lastReset: (at: string, ago: string) => `last reset ${at} (${ago} ago)`,
    estimate: (row: ProviderStatus, nowMs: number) => {
      if (row.nextEstimate === null) return 'next reset: no estimate yet (too few resets to measure a cadence)';
      const basis = `last reset + median gap of ${days(row.stats.medianIntervalDays!, 'en')}; a cadence estimate, not a vendor schedule`;
      return Date.parse(row.nextEstimate) <= nowMs
        ? `next reset: any time now by the cadence estimate (${utcMinute(row.nextEstimate)} has passed; ${basis})`
        : `next reset, cadence estimate: around ${utcMinute(row.nextEstimate)} (${basis})`;
    },
    latestHeading: 'Latest announcements',
    original: 'original post',
    permalink: 'permalink',
    none: 'No announcements yet.',
    endpointsHeading: 'Machine-readable endpoints',
    terms: 'Please link back to the service and keep each event’s original post URL when republishing.',
  },
  zh: {
    intro: (updatedAt: string) =>
      `三家 AI 编程工具供应商关于用量上限重置的官方公告，每条均链接到原始帖子，并附有根据历史节奏推算的下次重置估计。生成时间：${utcMinute(updatedAt)}。本服务与各供应商无关联；数据按原样提供。`,
    statusHeading: '状态',
    noReset: '尚无重置记录',
    lastReset: (at: string, ago: string) => `上次重置：${at}（${ago}前）`,
    estimate: (row: ProviderStatus, nowMs: number) => {
      if (row.nextEstimate === null) return '下次重置：暂无估计（重置次数太少，无法计算节奏）';
      const basis = `上次重置时间加上最近间隔的中位数 ${days(row.stats.medianIntervalDays!, 'zh')}；这只是根据节奏的估计，并非供应商的时间表`;
      return Date.parse(row.nextEstimate) <= nowMs
        ? `下次重置：按节奏估计随时可能发生（估计时间 ${utcMinute(row.nextEstimate)} 已过；${basis}）`
        : `下次重置（节奏估计）：约 ${utcMinute(row.nextEstimate)}（${basis}）`;
    },
    latestHeading: '最新公告',
    original: '原始帖子',
    permalink: '永久链接',
    none: '暂无公告。',
    endpointsHeading: '机器可读接口',
    terms: '转载时请链接回本服务，并保留每条公告的原始帖子链接。',
  },
} as const;

export function renderBoardMarkdown({ board, events, baseUrl, locale }: MarkdownInput): string {
  const text = TEXT[locale];
  const nowMs = Date.parse(board.updatedAt);
  const lines = [`# ${SERVICE_NAME}`, '', `> ${text.intro(board.updatedAt)}`, '', `## ${text.statusHeading}`, ''];

  for (const row of board.providers) {
    const status = `**${PROVIDER_LABELS[locale][row.provider]}**: ${STATUS_LABELS[locale][row.status]} (\`${row.status}\`)`;
    const last =
      row.lastReset === null || row.daysSince === null
        ? text.noReset
        : text.lastReset(
            utcMinute(row.lastReset.effectiveAt ?? row.lastReset.announcedAt),
            days(row.daysSince, locale),
          );
    lines.push(`- ${status}; ${last}; ${text.estimate(row, nowMs)}.`);
  }

  lines.push('', `## ${text.latestHeading}`, '');
  const latest = events.slice(0, MARKDOWN_LATEST_COUNT);
  if (latest.length === 0) lines.push(text.none);
  for (const event of latest) {
    const label = `${PROVIDER_LABELS[locale][event.provider]} · ${KIND_LABELS[locale][event.kind]}`;
    lines.push(
      `- ${utcMinute(event.announcedAt)} · ${label} · \`${event.scope}\`: ${escapeMarkdown(event.summary)} ` +
        `([${text.original}](<${new URL(event.sourceUrl).href}>), [${text.permalink}](<${eventPageUrl(baseUrl, event)}>))`,
    );
  }

  lines.push('', `## ${text.endpointsHeading}`, '');
  for (const endpoint of MACHINE_READABLE_ENDPOINTS) {
    lines.push(`- ${endpoint.title[locale]}: \`${endpoint.method} ${baseUrl}${endpoint.path}\``);
  }
  lines.push('', text.terms, '');
  return lines.join('\n');
}
