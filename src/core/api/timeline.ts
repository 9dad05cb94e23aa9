import { recentEvents, type EdgeDataset } from '../dataset.ts';
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
