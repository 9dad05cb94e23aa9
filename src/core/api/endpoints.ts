import type { Locale } from '../enums.ts';

/**
 * The machine-readable endpoints as listed to people and agents (Markdown mirrors, llms.txt, the API page).
 * The OpenAPI document describes each of them in full.
 */
export interface EndpointListing {
  path: string;
  method: 'GET' | 'POST';
  title: Record<Locale, string>;
}

export const MACHINE_READABLE_ENDPOINTS: readonly EndpointListing[] = [
  { method: 'GET', path: '/api/status', title: { en: 'Board status (JSON)', zh: '看板状态（JSON）' } },
  {
    method: 'GET',
    path: '/api/status/provider_a',
    title: { en: 'One provider’s status (JSON)', zh: '单个供应商的状态（JSON）' },
  },
  { method: 'GET', path: '/api/timeline', title: { en: 'Timeline of announcements (JSON)', zh: '公告时间线（JSON）' } },
  {
    method: 'GET',
    path: '/api/timeline.csv',
    title: { en: 'Timeline of announcements (CSV)', zh: '公告时间线（CSV）' },
  },
  { method: 'GET', path: '/feed.xml', title: { en: 'RSS 2.0 feed', zh: 'RSS 2.0 订阅源' } },
  { method: 'GET', path: '/feed.atom', title: { en: 'Atom feed', zh: 'Atom 订阅源' } },
  { method: 'GET', path: '/feed.json', title: { en: 'JSON Feed 1.1', zh: 'JSON Feed 1.1 订阅源' } },
  {
    method: 'GET',
    path: '/index.md',
    title: { en: 'This board as Markdown (English)', zh: '本看板的 Markdown 版（英文）' },
  },
  {
    method: 'GET',
    path: '/zh/index.md',
    title: { en: 'This board as Markdown (Chinese)', zh: '本看板的 Markdown 版（中文）' },
  },
  { method: 'GET', path: '/openapi.json', title: { en: 'OpenAPI 3.1 description', zh: 'OpenAPI 3.1 接口描述' } },
  { method: 'GET', path: '/llms.txt', title: { en: 'Guide for language models', zh: '给大语言模型的指引' } },
];
