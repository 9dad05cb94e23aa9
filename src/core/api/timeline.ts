import { recentEvents, type EdgeDataset } from '../dataset.ts';
import type { TimelineResponse } from '../schemas.ts';
import type { ProviderFilter } from './query.ts';

export interface TimelineSelection {
  provider: ProviderFilter;
  limit: number;
}

export const buildTimelineResponse = (
  dataset: EdgeDataset,
  selection: TimelineSelection,
  updatedAt: Date,
): TimelineResponse => ({
  provider: selection.provider,
  updatedAt: updatedAt.toISOString(),
  events: recentEvents(dataset, selection.provider, selection.limit),
});
