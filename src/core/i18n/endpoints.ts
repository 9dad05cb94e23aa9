import type { Locale } from '../vocabulary.ts';
import type { ListedRouteId } from '../routes/table.ts';

/**
 * The titles of the listed endpoints, per locale: every route the table marks `listing` must have one here
 * (the type says so), and nothing else lists an endpoint.
 */
export const ENDPOINT_TITLES: Record<Locale, Record<ListedRouteId, string>> = {
  en: {
    getStatus: 'Board status (JSON)',
    getProviderStatus: 'One provider’s status (JSON)',
    getTimeline: 'Timeline of announcements (JSON)',
    getTimelineCsv: 'Timeline of announcements (CSV)',
    getFeedRss: 'RSS 2.0 feed',
    getFeedAtom: 'Atom feed',
    getFeedJson: 'JSON Feed 1.1',
    getWindowCalendar: 'A calendar of your own reset windows (iCalendar)',
    getAnnouncementCalendar: 'Every announcement and each estimate, to subscribe to (iCalendar)',
    getMarkdownEn: 'This board as Markdown (English)',
    getMarkdownZh: 'This board as Markdown (Chinese)',
    postMcp: 'MCP server (JSON-RPC 2.0 over HTTP POST)',
    getMcpServerCard: 'MCP server card',
    getLlmsTxt: 'Guide for language models',
    getOpenApi: 'OpenAPI 3.1 description',
    getBadgeSvg: 'Status badge (SVG)',
    getHistoryIndex: 'The whole history, one file per provider and year',
  },
  zh: {
    getStatus: '看板状态（JSON）',
    getProviderStatus: '单个供应商的状态（JSON）',
    getTimeline: '公告时间线（JSON）',
    getTimelineCsv: '公告时间线（CSV）',
    getFeedRss: 'RSS 2.0 订阅源',
    getFeedAtom: 'Atom 订阅源',
    getFeedJson: 'JSON Feed 1.1 订阅源',
    getWindowCalendar: '你自己的重置窗口日历（iCalendar）',
    getAnnouncementCalendar: '全部公告与各供应商的估计，可订阅（iCalendar）',
    getMarkdownEn: '本看板的 Markdown 版（英文）',
    getMarkdownZh: '本看板的 Markdown 版（中文）',
    postMcp: 'MCP 服务器（HTTP POST 上的 JSON-RPC 2.0）',
    getMcpServerCard: 'MCP 服务器卡片',
    getLlmsTxt: '给大语言模型的指引',
    getOpenApi: 'OpenAPI 3.1 接口描述',
    getBadgeSvg: '状态徽章（SVG）',
    getHistoryIndex: '完整历史，每个供应商每年一个文件',
  },
};
