import { cadenceAt } from '../board.ts';
import type { ProviderSummary } from '../history.ts';
import { compareNewestFirst, effectiveMs, MS_PER_DAY, toIsoTimestamp } from '../ordering.ts';
import { PAGE_LIMITS, type ProviderPageData } from '../provider-page.ts';
import type { Event } from '../schemas.ts';

/**
 * A provider page's data with the journal's confirmed events (src/core/journal/merge.ts): the history lists them in
 * their places, the event count counts them, and each confirmed reset in effect at `now` ends a gap of the gap
 * chart, measured from the reset before it in `summary` (the provider's summary with the journal folded in). The
 * two track records stay as of the build: each replays the whole history, which the edge does not have, and a
 * confirmed event joins them when the next build holds it (docs/watch.md, "Confirm").
 */
export function providerPageWithJournal(
  page: ProviderPageData,
  journal: readonly Event[],
  summary: ProviderSummary,
  now: Date,
): ProviderPageData {
  const listed = new Set(page.history.map((event) => event.id));
  const added = journal.filter((event) => event.provider === page.provider && !listed.has(event.id));
  if (added.length === 0) return page;
  const addedIds = new Set(added.map((event) => event.id));
  const inEffect = cadenceAt(summary, now).recentResets;
  const gaps = inEffect.flatMap((reset, index) => {
    const previous = inEffect[index - 1];
    return addedIds.has(reset.id) && previous !== undefined
      ? [
          {
            endedAt: toIsoTimestamp(effectiveMs(reset)),
            days: (effectiveMs(reset) - effectiveMs(previous)) / MS_PER_DAY,
          },
        ]
      : [];
  });
  return {
    ...page,
    history: [...page.history, ...added].sort(compareNewestFirst).slice(0, PAGE_LIMITS.history),
    totalEvents: page.totalEvents + added.length,
    gaps: [...page.gaps, ...gaps].slice(-PAGE_LIMITS.gaps),
  };
}
