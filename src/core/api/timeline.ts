import type { BoardDataset } from '../dataset.ts';
import type { Event, TimelineResponse } from '../schemas.ts';
import type { ProviderFilter } from './query.ts';

export interface TimelineSelection {
  provider: ProviderFilter;
  limit: number;
}

/** The events of a timeline: the data set is already newest first, so this filters and cuts. */
export function selectTimelineEvents(events: readonly Event[], { provider, limit }: TimelineSelection): Event[] {
  const selected: Event[] = [];
  for (const event of events) {
    if (selected.length >= limit) break;
    if (provider === 'all' || event.provider === provider) selected.push(event);
  }
  return selected;
}

export const buildTimelineResponse = (
  dataset: BoardDataset,
  selection: TimelineSelection,
  updatedAt: Date,
): TimelineResponse => ({
  provider: selection.provider,
  updatedAt: updatedAt.toISOString(),
  events: selectTimelineEvents(dataset.events, selection),
});
