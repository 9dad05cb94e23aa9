/**
 * The spec's vocabulary (2.1, 2.2, 2.3) and its human labels, free of any library so that browser
 * scripts can use it too. Labels live here, beside the values they name: a new kind or provider is one edit.
 * `enums.ts` builds the zod schemas from these values.
 */

export const PROVIDERS = ['provider_a', 'provider_b', 'provider_c'] as const;
export type Provider = (typeof PROVIDERS)[number];

export const EVENT_KINDS = ['reset', 'banked', 'boost', 'promo', 'tease'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export const BOARD_STATUSES = ['reset_now', 'banked', 'tease', 'waiting', 'overdue', 'no_data'] as const;
export type BoardStatus = (typeof BOARD_STATUSES)[number];

export const LOCALES = ['en', 'zh'] as const;
export type Locale = (typeof LOCALES)[number];

export const PROVIDER_LABELS: Record<Locale, Record<Provider, string>> = {
  en: { provider_a: 'Provider A', provider_b: 'Provider B', provider_c: 'Provider C' },
  zh: { provider_a: '供应商 A', provider_b: '供应商 B', provider_c: '供应商 C' },
};

export const KIND_LABELS: Record<Locale, Record<EventKind, string>> = {
  en: { reset: 'Reset', banked: 'Banked reset', boost: 'Limit boost', promo: 'Promotion', tease: 'Tease' },
  zh: { reset: '重置', banked: '储备重置卡', boost: '额度提升', promo: '促销', tease: '预告' },
};

export const STATUS_LABELS: Record<Locale, Record<BoardStatus, string>> = {
  en: {
    reset_now: 'Reset now',
    banked: 'Banked',
    tease: 'Teased',
    waiting: 'Waiting',
    overdue: 'Overdue',
    no_data: 'No data',
  },
  zh: {
    reset_now: '刚刚重置',
    banked: '有储备卡',
    tease: '已预告',
    waiting: '等待中',
    overdue: '超过常规间隔',
    no_data: '暂无数据',
  },
};
