import path from 'node:path';
import type { Loader, LoaderContext } from 'astro/loaders';
import { checkEventTree } from './check-event-tree.ts';
import { eventsDirectory } from './events-directory.ts';

/**
 * The content collection's loader: the events that `checkEventTree` accepts, read by the one reader that
 * `npm run validate` uses (regular `<provider>/<id>.json` files only, never through a link). A tree with
 * any problem loads nothing in a build; in the dev server an edit that breaks the tree is reported and
 * the last good events stay.
 */
export function validatedEventsLoader(root = eventsDirectory()): Loader {
  const load = async ({ store, parseData, generateDigest, logger }: LoaderContext, during: 'build' | 'edit') => {
    const report = await checkEventTree(root);
    if (report.lines.length > 0) {
      const message = `Invalid event files, the events were not loaded:\n${report.lines.join('\n')}`;
      if (during === 'build') throw new Error(message);
      logger.error(message);
      return;
    }
    store.clear();
    for (const event of report.events) {
      const data = await parseData({ id: event.id, data: event });
      store.set({ id: event.id, data, digest: generateDigest(data) });
    }
    logger.info(`${report.events.length} events loaded from ${root}`);
  };
  let watching = false;
  return {
    name: 'departures-board:validated-events',
    load: async (context) => {
      await load(context, 'build');
      if (context.watcher === undefined || watching) return;
      watching = true;
      const watched = path.resolve(root);
      context.watcher.add(watched);
      context.watcher.on('all', (_, changed) => {
        if (changed === watched || changed.startsWith(`${watched}${path.sep}`)) void load(context, 'edit');
      });
    },
  };
}
