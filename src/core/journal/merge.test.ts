import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveProviderStatus, statusFromSummary } from '../board.ts';
import { buildEdgeDataset, datasetSlice, recentEvents, summariesOf } from '../dataset.ts';
import { EVENT_KINDS, PROVIDERS } from '../enums.ts';
import { forecastFromHistory, forecastFromSummary } from '../forecast/rule.ts';
import { summarizeProvider } from '../history.ts';
import { compareNewestFirst, MS_PER_DAY, MS_PER_HOUR } from '../ordering.ts';
import type { Event } from '../schemas.ts';
import { makeEvent } from '../test-events.ts';
import { datasetWithJournal, journalFit, summariesWithJournal, summaryWithJournal } from './merge.ts';
import { scaled } from '../../../scripts/lib/load-scaled.ts';

/**
 * The journal's fold is checked against the build's own reckoning from the whole history: a board and a forecast
 * derived from the history with the journal's events in it (deriveProviderStatus, forecastFromHistory, which read
 * every event and no summary) must equal those derived from the build's summary with the journal folded in.
 */

const START = Date.parse('2025-01-01T00:00:00.000Z');
const SPAN = 90 * MS_PER_DAY;
const iso = (ms: number) => new Date(ms).toISOString();

const fields = fc.record({
  provider: fc.constantFrom(...PROVIDERS),
  kind: fc.constantFrom(...EVENT_KINDS, 'reset', 'reset'),
  // A few hours a day, so that equal times (and their tie-breaks) come up.
  announcedMs: fc
    .tuple(fc.integer({ min: 0, max: SPAN / MS_PER_DAY }), fc.constantFrom(0, 9, 17))
    .map(([day, hour]) => START + day * MS_PER_DAY + hour * MS_PER_HOUR),
  delayMs: fc.option(
    fc.integer({ min: 1, max: 10 * 24 }).map((hours) => hours * MS_PER_HOUR),
    { freq: 3 },
  ),
});
const eventsOf = (
  prefix: string,
  list: { provider: Event['provider']; kind: Event['kind']; announcedMs: number; delayMs: number | null }[],
) =>
  list.map(({ provider, kind, announcedMs, delayMs }, index) =>
    makeEvent({
      id: `${prefix}${index}`,
      provider,
      kind,
      announcedAt: iso(announcedMs),
      effectiveAt: delayMs === null ? null : iso(announcedMs + delayMs),
    }),
  );

const cases = fc.record({
  history: fc.array(fields, { maxLength: 50 }).map((list) => eventsOf('h', list)),
  candidates: fc.array(fields, { minLength: 1, maxLength: 6 }).map((list) => eventsOf('j', list)),
  builtAfterDays: fc.integer({ min: 0, max: SPAN / MS_PER_DAY }),
  laterMs: fc.integer({ min: 0, max: 40 * MS_PER_DAY }),
});

/** The candidates a reviewer could confirm, one after another: each must fit the summary with the earlier ones in. */
function confirmable(history: readonly Event[], candidates: readonly Event[], builtAt: Date): Event[] {
  const journal: Event[] = [];
  for (const candidate of candidates) {
    const summary = summaryWithJournal(summarizeProvider(candidate.provider, history, builtAt), journal);
    if (journalFit(summary, candidate) === null) journal.push(candidate);
  }
  return journal;
}

describe('the journal folded into the build’s data', { timeout: scaled(120_000) }, () => {
  it('derives the board and the forecast the whole history with the journal gives', () => {
    fc.assert(
      fc.property(cases, ({ history, candidates, builtAfterDays, laterMs }) => {
        const builtAt = new Date(START + builtAfterDays * MS_PER_DAY);
        const known = history.filter((event) => Date.parse(event.announcedAt) <= builtAt.getTime());
        const journal = confirmable(known, candidates, builtAt);
        const lastAnnounced = Math.max(builtAt.getTime(), ...journal.map((event) => Date.parse(event.announcedAt)));
        const now = new Date(lastAnnounced + laterMs);
        const everything = [...known, ...journal];
        for (const provider of PROVIDERS) {
          const folded = summaryWithJournal(summarizeProvider(provider, known, builtAt), journal);
          expect(statusFromSummary(folded, now)).toEqual(deriveProviderStatus(provider, everything, now));
          expect(forecastFromSummary(folded, now)).toEqual(forecastFromHistory(provider, everything, now));
        }
      }),
    );
  });

  it('puts the journal’s events in every list of newest events, cut where the build cuts', () => {
    fc.assert(
      fc.property(cases, fc.integer({ min: 1, max: 12 }), ({ history, candidates, builtAfterDays }, listLength) => {
        const builtAt = new Date(START + builtAfterDays * MS_PER_DAY);
        const known = history.filter((event) => Date.parse(event.announcedAt) <= builtAt.getTime());
        const journal = confirmable(known, candidates, builtAt);
        // The slice a build writes for the board page, the feeds and the default timeline (dataset.ts).
        const cut = datasetSlice(buildEdgeDataset(known, builtAt), listLength);
        const merged = datasetWithJournal(cut, journal, listLength);
        const everything = [...known, ...journal].sort(compareNewestFirst);
        for (const provider of PROVIDERS)
          expect(merged.providers[provider].recent.map((event) => event.id)).toEqual(
            everything
              .filter((event) => event.provider === provider)
              .slice(0, listLength)
              .map((event) => event.id),
          );
        expect(recentEvents(merged, 'all', listLength).map((event) => event.id)).toEqual(
          everything.slice(0, listLength).map((event) => event.id),
        );
        // A shorter selection read from the same slice (context.dataset's smallest file that holds it).
        const shorter = Math.max(1, listLength - 3);
        expect(recentEvents(merged, 'all', shorter).map((event) => event.id)).toEqual(
          everything.slice(0, shorter).map((event) => event.id),
        );
        for (const provider of PROVIDERS)
          expect(recentEvents(merged, provider, shorter).map((event) => event.id)).toEqual(
            everything
              .filter((event) => event.provider === provider)
              .slice(0, shorter)
              .map((event) => event.id),
          );
      }),
    );
  });

  it('leaves out an event the build already holds, and changes nothing with an empty journal', () => {
    const builtAt = new Date(START + 30 * MS_PER_DAY);
    const reset = makeEvent({ id: 'held', provider: 'provider_b', announcedAt: iso(START + 29 * MS_PER_DAY) });
    const built = buildEdgeDataset([reset], builtAt);
    expect(summariesWithJournal(summariesOf(built), [reset])).toEqual(summariesOf(built));
    expect(datasetWithJournal(built, [reset], 500)).toEqual(built);
    expect(datasetWithJournal(built, [], 500)).toBe(built);
  });

  it('refuses a reset older than the latest reset in effect, and takes any other kind', () => {
    const builtAt = new Date(START + 30 * MS_PER_DAY);
    const latest = makeEvent({ id: 'latest', announcedAt: iso(START + 20 * MS_PER_DAY) });
    const summary = summarizeProvider('provider_a', [latest], builtAt);
    const older = { announcedAt: iso(START + 25 * MS_PER_DAY), effectiveAt: iso(START + 10 * MS_PER_DAY) };
    expect(journalFit(summary, makeEvent({ id: 'old', ...older }))).toBe('older-than-latest-reset');
    expect(journalFit(summary, makeEvent({ id: 'tease', kind: 'tease', ...older }))).toBeNull();
    expect(journalFit(summary, makeEvent({ id: 'new', announcedAt: iso(START + 21 * MS_PER_DAY) }))).toBeNull();
  });
});
