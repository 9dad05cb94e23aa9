import { publishEvents, type PublishedEvents } from '../../src/core/dataset.ts';
import { checkEventTree } from '../../src/node/check-event-tree.ts';

/** What the build publishes from content/events, computed here from the files, as an independent expectation. */
export async function publishedFromContent(): Promise<PublishedEvents> {
  const { events, problems } = await checkEventTree('content/events');
  if (problems.length > 0) throw new Error(`content/events is not valid: ${problems.length} problem(s)`);
  return publishEvents(events, new Date());
}
