import { homePageView } from '../core/home-page.ts';
import { boardPageSlots } from '../core/page-slots/board.ts';
import { fillSlots, type SlottedTemplate, sliceTemplate } from '../core/page-slots/slots.ts';
import {
  BOARD_PAGE_CACHE,
  boardSuggestion,
  type PageTemplateName,
  pageTemplateOf,
  pageTemplatePath,
  suggestsLanguage,
} from '../core/page-slots/templates.ts';
import { providerPageSlots } from '../core/page-slots/provider.ts';
import type { Event } from '../core/schemas.ts';
import type { Locale } from '../core/vocabulary.ts';
import { readPerIsolate } from './built-files.ts';
import { loadBoardPageDataset, loadEdgeSummaries, loadProviderSlotFacts } from './data-source.ts';
import { warmUpPageSlots } from './page-warm-up.ts';
import { readSourceHealth, type SourceHealthStores } from './source-health.ts';

/**
 * The board, the provider pages and the tracker from the build's templates (src/core/page-slots/slots.ts): the
 * template read once per isolate, its slots filled with the same functions Astro's render of the page calls, and no
 * Astro loaded (docs/performance.md, "Pages from templates"). Only while the journal of confirmed events is empty:
 * a template holds the build's events, and a confirmed event not yet in a build is on Astro's render of the page
 * (the minutes between a confirm and the next deploy). Any other page, or any failure here, is Astro's to answer,
 * with its own error pages; the caller falls back to it on `null`.
 */

export interface PageTemplateBindings extends SourceHealthStores {
  ASSETS: Pick<Fetcher, 'fetch'>;
}

warmUpPageSlots();

/**
 * The templates read in this isolate, cut at their slots, by path (src/server/built-files.ts, `readPerIsolate`: in
 * dev at every request).
 */
const templates = new Map<string, Promise<SlottedTemplate>>();

const readTemplate = (assets: PageTemplateBindings['ASSETS'], origin: string, path: string) =>
  readPerIsolate(templates, path, () =>
    assets.fetch(new URL(path, origin)).then(async (response) => {
      if (!response.ok) throw new Error(`${path} answered ${response.status}`);
      return sliceTemplate(new Uint8Array(await response.arrayBuffer()));
    }),
  );

async function slotsOf(
  name: PageTemplateName,
  locale: Locale,
  request: Request,
  origin: string,
  bindings: PageTemplateBindings,
  now: Date,
): Promise<Record<string, string>> {
  if (name === 'tracker') return {};
  if (name === 'board') {
    const [dataset, sources] = await Promise.all([
      loadBoardPageDataset(bindings.ASSETS, origin),
      readSourceHealth(bindings, now),
    ]);
    const suggest = boardSuggestion(locale, request.headers.get('accept-language'));
    return boardPageSlots({ locale, view: homePageView(dataset, now), sources, now, suggest });
  }
  const [summaries, facts] = await Promise.all([
    loadEdgeSummaries(bindings.ASSETS, origin),
    loadProviderSlotFacts(bindings.ASSETS, origin, name),
  ]);
  return providerPageSlots({ locale, provider: name, summary: summaries[name], facts, now });
}

/**
 * The page from its template, or null when this is not such a page, the journal holds events, or anything fails.
 * The headers are the ones Astro's render of the page sends (tests/page-templates.test.ts holds both to the same).
 */
export async function pageFromTemplate(
  request: Request,
  bindings: PageTemplateBindings,
  journal: () => Promise<readonly Event[]>,
  now: Date = new Date(),
): Promise<Response | null> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return null;
  const url = new URL(request.url);
  const page = pageTemplateOf(url);
  if (page === null) return null;
  try {
    if ((await journal()).length > 0) return null;
    const [template, slots] = await Promise.all([
      readTemplate(bindings.ASSETS, url.origin, pageTemplatePath(page.locale, page.name)),
      slotsOf(page.name, page.locale, request, url.origin, bindings, now),
    ]);
    const body = fillSlots(template, slots);
    if (body === null) throw new Error('its slots are not the ones it holds (a template of another build?)');
    const headers = new Headers({ 'Content-Type': 'text/html', 'Cache-Control': BOARD_PAGE_CACHE });
    if (page.name === 'board' && suggestsLanguage(page.locale)) headers.set('Vary', 'Accept-Language');
    return new Response(request.method === 'HEAD' ? null : body, { headers });
  } catch (error) {
    console.warn(`the page ${url.pathname} is rendered by Astro: its template could not be filled:`, String(error));
    return null;
  }
}
