import { LANGUAGES, type Locale, languageOfPrefix, suggestedLocale } from '../languages.ts';
import { CACHE_POLICIES } from '../routes/policy.ts';
import { PROVIDERS, type Provider } from '../vocabulary.ts';

/** How long these pages may be shared: as GET /api/status (the per-minute page cache keeps them under its key). */
export const BOARD_PAGE_CACHE = CACHE_POLICIES.api;

/**
 * Whether a board suggests the reader's language: English's, at the root, where readers arrive without choosing;
 * its answer then depends on `Accept-Language` (it varies by it, and the page cache keeps a copy per suggestion).
 */
export const suggestsLanguage = (locale: Locale): boolean => locale === 'en';

/** The language a board suggests to a reader whose browser asks for `acceptLanguage`, or null. */
export const boardSuggestion = (locale: Locale, acceptLanguage: string | null): Locale | null =>
  suggestsLanguage(locale) ? suggestedLocale(acceptLanguage, locale) : null;

/**
 * The pages the build writes as templates for the edge to fill in (slots.ts): the board, each provider's page
 * and the tracker, in every language, at `/data/page-templates/<locale>/<page>.html`.
 */
export const PAGE_TEMPLATE_NAMES = ['board', ...PROVIDERS, 'tracker'] as const;
export type PageTemplateName = (typeof PAGE_TEMPLATE_NAMES)[number];

export const pageTemplatePath = (locale: Locale, name: PageTemplateName): string =>
  `/data/page-templates/${locale}/${name}.html`;

/** Every template of a build, as the prerendered route's parameters. */
export const PAGE_TEMPLATES: readonly { locale: Locale; name: PageTemplateName }[] = LANGUAGES.flatMap((language) =>
  PAGE_TEMPLATE_NAMES.map((name) => ({ locale: language.code, name })),
);

const isProvider = (segment: string): segment is Provider => (PROVIDERS as readonly string[]).includes(segment);

/**
 * The template a request for a page is answered from: `/`, `/<prefix>`, `/<provider>`, `/<prefix>/<provider>`,
 * `/tracker` and `/<prefix>/tracker`; the tracker only without a query (its form's answer is rendered anew). Null
 * for every other path.
 */
export function pageTemplateOf(url: URL): { locale: Locale; name: PageTemplateName } | null {
  const segments = url.pathname.split('/').slice(1);
  if (segments.length > 2) return null;
  const language = segments.length === 2 ? languageOfPrefix(segments[0]) : undefined;
  if (segments.length === 2 && language === undefined) return null;
  const locale = language?.code ?? 'en';
  const page = segments.at(-1)!;
  if (page === '') return segments.length === 1 ? { locale, name: 'board' } : null;
  const board = segments.length === 1 ? languageOfPrefix(page) : undefined;
  if (board !== undefined) return { locale: board.code, name: 'board' };
  if (isProvider(page)) return { locale, name: page };
  if (page === 'tracker' && url.search === '') return { locale, name: 'tracker' };
  return null;
}
