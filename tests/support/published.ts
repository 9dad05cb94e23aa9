import { publishEvents, type PublishedEvents } from '../../src/core/dataset.ts';
import { checkEventTree } from '../../src/node/check-event-tree.ts';
import { SERVED_EVENTS_DIR } from './served-events.ts';

/** What the build publishes from the served fixture, computed here from the files, as an independent expectation. */
export async function publishedFromContent(): Promise<PublishedEvents> {
  const { events, problems } = await checkEventTree(SERVED_EVENTS_DIR);
  if (problems.length > 0) throw new Error(`${SERVED_EVENTS_DIR} is not valid: ${problems.length} problem(s)`);
  return publishEvents(events, new Date());
}
