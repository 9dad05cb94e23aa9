import { inject } from 'vitest';
import { publishEvents, type PublishedEvents } from '../../src/core/dataset.ts';
import { checkEventTree } from '../../src/node/check-event-tree.ts';

/** What the build publishes from the served event tree, computed here from the files, as an independent expectation. */
export async function publishedFromContent(): Promise<PublishedEvents> {
  const eventsDir = inject('servedEventsDir');
  const { events, problems } = await checkEventTree(eventsDir);
  if (problems.length > 0) throw new Error(`${eventsDir} is not valid: ${problems.length} problem(s)`);
  return publishEvents(events, new Date());
}
