import { summariesOf } from '../core/dataset.ts';
import { homePageView } from '../core/home-page.ts';
import { boardPageSlots } from '../core/page-slots/board.ts';
import { providerPageSlots } from '../core/page-slots/provider.ts';
import { type SourceCheck, type SourcesResponse, sourcesResponse, storedSourceReport } from '../core/sources.ts';
import { WARM_UP_DATASET, WARM_UP_NOW } from './page-warm-up-data.ts';

/**
 * The pages' slots rendered once as the isolate starts, over a small board of its own (page-warm-up-data.ts), so
 * that the first page a visitor asks for does not pay for compiling their code (V8 compiles a function when it is
 * first called) and for making English's Intl formatters: about 2 ms of that request's CPU moved into the start,
 * which has a limit of its own (docs/performance.md, "Pages from templates"). Nothing is read or kept; whatever
 * fails here is left to the first request, which meets it again and falls back to Astro.
 */
const NOW = new Date(WARM_UP_NOW);

/** The watcher's report as the board reads it from storage (marked: the page trusts it, no zod check to warm). */
function warmUpSources(): SourcesResponse {
  const check = (name: string, ok: boolean): SourceCheck => ({
    provider: 'provider_a',
    name,
    url: `https://posts.example/${name}.rss`,
    checkedAt: NOW.toISOString(),
    ok,
    error: ok ? null : 'answered HTTP 500',
    itemsSeen: ok ? 20 : 0,
  });
  const report = { checkedAt: NOW.toISOString(), sources: [check('a', true), check('b', false)] };
  const { response, problem } = sourcesResponse(storedSourceReport(report), NOW);
  // The problem names the stored key already.
  if (problem !== null) throw new Error(problem);
  return response;
}

export function warmUpPageSlots(): void {
  try {
    const dataset = WARM_UP_DATASET;
    boardPageSlots({
      locale: 'en',
      view: homePageView(dataset, NOW),
      sources: warmUpSources(),
      now: NOW,
      suggest: null,
    });
    const summaries = summariesOf(dataset);
    providerPageSlots({
      locale: 'en',
      provider: 'provider_a',
      summary: summaries.provider_a,
      facts: {
        longestGapDays: 7,
        forecastScores: {
          '1d': { brierScore: 0.1, baseRateBrierScore: 0.1 },
          '7d': { brierScore: 0.1, baseRateBrierScore: 0.1 },
        },
      },
      now: NOW,
    });
  } catch (error) {
    console.warn('the pages could not be warmed up at the start:', String(error));
  }
}
