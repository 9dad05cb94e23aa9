import { RECENT_EVENTS_PER_PROVIDER, recentEvents, type EdgeDataset } from '../dataset.ts';
import type { TimelineResponse } from '../schemas.ts';
import type { EventKind } from '../vocabulary.ts';
import type { ProviderFilter } from './query.ts';

export interface TimelineSelection {
  provider: ProviderFilter;
  limit: number;
  /** Only events of this kind (MCP's get_timeline; the HTTP API has no such filter). */
  kind?: EventKind;
}

export const buildTimelineResponse = (
  dataset: EdgeDataset,
  selection: TimelineSelection,
  updatedAt: Date,
): TimelineResponse => ({
  provider: selection.provider,
  updatedAt: updatedAt.toISOString(),
  events: recentEvents(dataset, selection.provider, selection.limit, selection.kind),
});

/**
 * How many of each provider's newest events a selection reads: `limit` (a merge across providers takes at most that
 * many from each), or all the data set holds when it filters by kind.
 */
export const newestEventsRead = (selection: TimelineSelection): number =>
  selection.kind === undefined ? selection.limit : RECENT_EVENTS_PER_PROVIDER;
