import { FORECAST_BASIS_GAPS, MEDIAN_BASIS_RESETS } from '../cadence.ts';
import type { EdgeDataset, EdgeSummaries } from '../dataset.ts';
import type { ProviderSummary } from '../history.ts';
import { announcedMs, compareByEffectiveTime, compareNewestFirst, effectiveMs } from '../ordering.ts';
import type { Event } from '../schemas.ts';
import { PROVIDERS } from '../vocabulary.ts';

/**
 * The confirmed-events journal folded into the build's data (decisions.md, "Confirmed within a minute"): the edge
 * adds the few events a reviewer confirmed since the build to the summaries and the newest-event lists it serves
 * from, so that every output reads as if a build held them. The build's summary keeps running totals (gaps, the
 * longest gap, the hour histogram), not the whole history; an event folds into them exactly when it does not
 * reorder the resets already in effect, which `journalFit` checks before a reviewer can confirm it (an older
 * reset goes through a pull request, where the build recounts the whole history).
 *
 * An event the build already holds (a build that has it serves before its journal row retires) is left out, so it
 * is never counted twice: each summary knows the events it names, and each list its ids.
 */

/** Why an event cannot be published through the journal, or null when it can. */
export type JournalMisfit = 'older-than-latest-reset';

/** Whether `event` folds exactly into `summary` (the build's, with the journal already folded in). */
export function journalFit(summary: ProviderSummary, event: Event): JournalMisfit | null {
  if (event.kind !== 'reset' || effectiveMs(event) > Date.parse(summary.asOf)) return null;
  const latest = summary.recentResets.at(-1);
  return latest === undefined || compareByEffectiveTime(latest, event) < 0 ? null : 'older-than-latest-reset';
}

/** The ids a summary names: enough to tell whether the build already holds a recent event. */
const namedIds = (summary: ProviderSummary): Set<string> =>
  new Set(
    [summary.latestSignal, summary.newestTease, ...summary.recentResets, ...summary.pendingResets]
      .filter((event) => event !== null)
      .map((event) => event.id),
  );

const newer = (a: Event | null, b: Event): Event => (a === null || compareNewestFirst(b, a) < 0 ? b : a);

/** One event folded into a summary as `summarizeProvider` would have counted it (see `journalFit`). */
function foldEvent(summary: ProviderSummary, event: Event): ProviderSummary {
  const folded: ProviderSummary = {
    ...summary,
    eventCount: summary.eventCount + 1,
    latestSignal: newer(summary.latestSignal, event),
    newestTease: event.kind === 'tease' ? newer(summary.newestTease, event) : summary.newestTease,
    firstRecordedAt:
      summary.firstRecordedAt === null || event.announcedAt < summary.firstRecordedAt
        ? event.announcedAt
        : summary.firstRecordedAt,
  };
  if (event.kind !== 'reset') return folded;
  const hourHistogramUtc = [...summary.hourHistogramUtc];
  const hour = new Date(announcedMs(event)).getUTCHours();
  hourHistogramUtc[hour] = (hourHistogramUtc[hour] ?? 0) + 1;
  const withReset = { ...folded, totalResets: summary.totalResets + 1, hourHistogramUtc };
  if (effectiveMs(event) > Date.parse(summary.asOf))
    return { ...withReset, pendingResets: [...summary.pendingResets, event].sort(compareByEffectiveTime) };
  const previous = summary.recentResets.at(-1);
  const recentResets = [...summary.recentResets, event].slice(-MEDIAN_BASIS_RESETS);
  if (previous === undefined) return { ...withReset, recentResets };
  const gapMs = effectiveMs(event) - effectiveMs(previous);
  return {
    ...withReset,
    recentResets,
    gapCount: summary.gapCount + 1,
    gapSumMs: summary.gapSumMs + gapMs,
    longestGapMs: Math.max(summary.longestGapMs ?? gapMs, gapMs),
    recentGapsMs: [...summary.recentGapsMs, gapMs].slice(-FORECAST_BASIS_GAPS),
  };
}

/** The journal's events of `summary`'s provider that the build does not hold, in the order they fold. */
function unheld(summary: ProviderSummary, journal: readonly Event[], heldIds?: ReadonlySet<string>): Event[] {
  const named = namedIds(summary);
  return journal
    .filter((event) => event.provider === summary.provider && !named.has(event.id) && !heldIds?.has(event.id))
    .sort(compareByEffectiveTime);
}

/** A provider's summary with the journal folded in. */
export const summaryWithJournal = (
  summary: ProviderSummary,
  journal: readonly Event[],
  heldIds?: ReadonlySet<string>,
): ProviderSummary => unheld(summary, journal, heldIds).reduce(foldEvent, summary);

/** Every provider's summary with the journal folded in (the same object when the journal is empty). */
export function summariesWithJournal(summaries: EdgeSummaries, journal: readonly Event[]): EdgeSummaries {
  if (journal.length === 0) return summaries;
  return Object.fromEntries(
    PROVIDERS.map((provider) => [provider, summaryWithJournal(summaries[provider], journal)]),
  ) as EdgeSummaries;
}

/**
 * The edge data set (or the board page's slice of it) with the journal folded in: each summary, and each list of
 * newest events with the journal's events in their places, as long as the build's list was (a build would have
 * cut it there too). The same object when the journal is empty.
 */
export function datasetWithJournal(dataset: EdgeDataset, journal: readonly Event[], listLength: number): EdgeDataset {
  if (journal.length === 0) return dataset;
  const providers = Object.fromEntries(
    PROVIDERS.map((provider) => {
      const data = dataset.providers[provider];
      const listed = new Set(data.recent.map((event) => event.id));
      const added = unheld(data.summary, journal, listed);
      if (added.length === 0) return [provider, data];
      return [
        provider,
        {
          ...data,
          summary: added.reduce(foldEvent, data.summary),
          recent: [...data.recent, ...added].sort(compareNewestFirst).slice(0, listLength),
        },
      ];
    }),
  ) as EdgeDataset['providers'];
  return { ...dataset, providers };
}
