import { boardFromSummaries } from './board.ts';
import { type EdgeDataset, recentEvents, summariesOf } from './dataset.ts';
import { forecastResponse } from './forecast/rule.ts';
import type { Forecast } from './forecast/schemas.ts';
import type { ForecastScores } from './forecast/skill.ts';
import type { Event, StatusResponse } from './schemas.ts';
import { type UnconfirmedTease, type UpcomingReset, unconfirmedTease, upcomingReset } from './upcoming-reset.ts';
import { PROVIDERS, type Provider } from './vocabulary.ts';

/** What the board's home page (`/`, `/zh`) shows, derived from the data set at `now`. */
export interface HomePageView {
  board: StatusResponse;
  /** O(20) per provider from the same summaries: the chance of a reset soon, one sentence each. */
  forecasts: Forecast[];
  latest: Event[];
  upcoming: Record<Provider, UpcomingReset | null>;
  /** A live tease whose time has passed without a reset: its row says so. */
  unconfirmed: Record<Provider, UnconfirmedTease | null>;
  /** The forecast's Brier scores beside the base rate's, as of the build. */
  forecastScores: Record<Provider, ForecastScores>;
}

const perProvider = <T>(value: (provider: Provider) => T): Record<Provider, T> =>
  Object.fromEntries(PROVIDERS.map((provider) => [provider, value(provider)])) as Record<Provider, T>;

/**
 * Derived by the page itself (src/pages/index.astro), before Astro starts streaming: a data set that makes this
 * throw then still changes the answer to the 503 page (src/middleware.ts). Derived in the component instead, the
 * throw came mid-stream, after the 200 had left, and the local runtime cut the response into a 500 in plain text
 * with its own stack.
 */
export function homePageView(dataset: EdgeDataset, now: Date): HomePageView {
  const summaries = summariesOf(dataset);
  const board = boardFromSummaries(summaries, now);
  return {
    board,
    forecasts: forecastResponse(summaries, now).providers,
    latest: recentEvents(dataset, 'all', 10),
    upcoming: perProvider((provider) => upcomingReset(summaries[provider], now)),
    unconfirmed: perProvider((provider) => unconfirmedTease(summaries[provider], now)),
    forecastScores: perProvider((provider) => dataset.providers[provider].forecastScores),
  };
}
