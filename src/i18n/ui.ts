import { TRANSLATIONS } from '../core/i18n/index.ts';
import type { Locale } from '../core/vocabulary.ts';

/** The website's words per locale (src/core/i18n), as the pages read them. */
export const UI = { en: TRANSLATIONS.en.ui, zh: TRANSLATIONS.zh.ui } as const;
export type UiText = (typeof UI)['en'];

/** The same page in the other language: `/x` ↔ `/zh/x`, `/` ↔ `/zh`. */
export function localizedPath(path: string, locale: Locale): string {
  const english = path === '/zh' ? '/' : path.startsWith('/zh/') ? path.slice(3) : path;
  if (locale === 'en') return english;
  return english === '/' ? '/zh' : `/zh${english}`;
}
