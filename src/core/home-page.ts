import { boardFromSummaries } from './board.ts';
import { type EdgeDataset, recentEvents, summariesOf } from './dataset.ts';
import { forecastResponse } from './forecast/rule.ts';
import type { Forecast } from './forecast/schemas.ts';
import type { ForecastScores } from './forecast/skill.ts';
import type { ProviderSummary } from './history.ts';
import type { Event, StatusResponse } from './schemas.ts';
import type { RowFacts } from './board-answer.ts';
import { rowFacts } from './upcoming-reset.ts';
import { PROVIDERS, type Provider } from './vocabulary.ts';

/** What the board's home page (`/`, `/zh`) shows, derived from the data set at `now`. */
export interface HomePageView {
  board: StatusResponse;
  /** O(20) per provider from the same summaries: the chance of a reset soon, one sentence each. */
  forecasts: Forecast[];
  latest: Event[];
  /** Each row's facts for its one answer to "when" (src/core/board-answer.ts), in the board's order. */
  rows: RowFacts[];
  /** The forecast's Brier scores beside the base rate's, as of the build. */
  forecastScores: Record<Provider, ForecastScores>;
}

const perProvider = <T>(value: (provider: Provider) => T): Record<Provider, T> =>
  Object.fromEntries(PROVIDERS.map((provider) => [provider, value(provider)])) as Record<Provider, T>;

/** The board, the forecasts and each row's facts for its one answer (the board's page and its Markdown mirror). */
export function boardAnswers(
  summaries: Readonly<Record<Provider, ProviderSummary>>,
  now: Date,
): Pick<HomePageView, 'board' | 'forecasts' | 'rows'> {
  const board = boardFromSummaries(summaries, now);
  const forecasts = forecastResponse(summaries, now).providers;
  const forecastOf = (provider: Provider) => forecasts.find((forecast) => forecast.provider === provider) ?? null;
  return {
    board,
    forecasts,
    rows: board.providers.map((row) => rowFacts(summaries[row.provider], row, forecastOf(row.provider), now)),
  };
}

/**
 * Derived by the page itself (src/pages/index.astro), before Astro starts streaming: a data set that makes this
 * throw then still changes the answer to the 503 page (src/middleware.ts). Derived in the component instead, the
 * throw came mid-stream, after the 200 had left, and the local runtime cut the response into a 500 in plain text
 * with its own stack.
 */
export function homePageView(dataset: EdgeDataset, now: Date): HomePageView {
  return {
    ...boardAnswers(summariesOf(dataset), now),
    latest: recentEvents(dataset, 'all', 10),
    forecastScores: perProvider((provider) => dataset.providers[provider].forecastScores),
  };
}
