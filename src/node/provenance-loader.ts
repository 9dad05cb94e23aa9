import type { Loader } from 'astro/loaders';
import { checkEventTree } from './check-event-tree.ts';
import { eventsDirectory } from './events-directory.ts';
import { readProvenance } from './provenance.ts';

/**
 * The `provenance` content collection: each valid event's provenance from the one `git log` pass over the
 * event tree (src/node/provenance.ts), by event id. A loader because loaders run in Node during the build,
 * where git can be started; the prerendered routes that write the records run in the worker runtime, which
 * cannot. `REPOSITORY_URL` is read here, at build time, for the commit links. A tree with problems loads
 * nothing (the events loader stops the build with the reasons).
 */
export function eventProvenanceLoader(root = eventsDirectory()): Loader {
  return {
    name: 'departures-board:event-provenance',
    load: async ({ store, parseData, generateDigest, logger }) => {
      const report = await checkEventTree(root);
      store.clear();
      if (report.lines.length > 0) return;
      const provenance = await readProvenance({ eventsDir: root, events: report.events });
      let known = 0;
      for (const [id, entry] of provenance) {
        const data = await parseData({ id, data: entry });
        store.set({ id, data, digest: generateDigest(data) });
        if (entry.recordedAt !== null) known += 1;
      }
      logger.info(`provenance of ${known} of ${report.events.length} events read from git`);
    },
  };
}
