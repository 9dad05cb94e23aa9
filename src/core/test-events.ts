import type { Provider } from './enums.ts';
import { type ProviderSummary, summarizeProvider } from './history.ts';
import { boardAnswers } from './home-page.ts';
import { PROVIDERS } from './vocabulary.ts';
import type { Forecast } from './forecast/schemas.ts';
import { MS_PER_DAY } from './ordering.ts';
import type { Event } from './schemas.ts';

/** Test support: events built relative to a fixed `now`, with only what a test cares about spelled out. */

export const NOW = new Date('2026-06-15T12:00:00.000Z');

export const daysBefore = (days: number, now: Date = NOW): string =>
  new Date(now.getTime() - days * MS_PER_DAY).toISOString();

let sequence = 0;

export function makeEvent(overrides: Partial<Event> = {}): Event {
  sequence += 1;
  const id = overrides.id ?? `e${String(sequence).padStart(5, '0')}`;
  const provider: Provider = overrides.provider ?? 'provider_a';
  return {
    id,
    provider,
    kind: 'reset',
    scope: 'global',
    announcedAt: daysBefore(1),
    effectiveAt: null,
    sourceUrl: `https://posts.${provider.replace('_', '-')}.example/${id}`,
    sourceAccount: `${provider}_team`,
    summary: 'Usage limits have been reset for everyone.',
    audience: [],
    verified: true,
    ...overrides,
  };
}

/** A reset announced (and effective) `days` before `NOW`. */
export const resetDaysAgo = (days: number, overrides: Partial<Event> = {}): Event =>
  makeEvent({ kind: 'reset', announcedAt: daysBefore(days), ...overrides });

/** Resets `gapsInDays` apart, the last one `lastDaysAgo` before `NOW`, oldest first. */
export function resetsWithGaps(gapsInDays: readonly number[], lastDaysAgo: number): Event[] {
  let daysAgo = lastDaysAgo + gapsInDays.reduce((sum, gap) => sum + gap, 0);
  const resets = [resetDaysAgo(daysAgo)];
  for (const gap of gapsInDays) {
    daysAgo -= gap;
    resets.push(resetDaysAgo(daysAgo));
  }
  return resets;
}

/** A cadence forecast with every field filled in (probabilities, a window, an announced time), for the words. */
export const makeForecast = (overrides: Partial<Forecast> = {}): Forecast => ({
  provider: 'provider_a',
  basis: 'cadence',
  elapsedDays: 3.25,
  sampleSize: 20,
  probabilities: { '1d': 0.18, '3d': 0.4, '7d': 0.614 },
  likelyWindow: { from: '2026-11-25T00:00:00.000Z', to: '2026-11-28T00:00:00.000Z' },
  announcedFor: '2026-11-24T17:00:00.000Z',
  ...overrides,
});

/** The board, forecasts and row facts at `now` from every event, as the home page derives them from summaries. */
export const boardAnswersAt = (events: readonly Event[], now: Date = NOW) =>
  boardAnswers(
    Object.fromEntries(PROVIDERS.map((provider) => [provider, summarizeProvider(provider, events, now)])) as Record<
      Provider,
      ProviderSummary
    >,
    now,
  );
