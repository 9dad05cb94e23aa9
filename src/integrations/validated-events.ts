import type { AstroIntegration } from 'astro';
import { checkEventTree } from '../node/check-event-tree.ts';
import { eventsDirectory } from '../node/events-directory.ts';

/**
 * Refuses to start a build (or the dev server) from an event tree with any bad file, listing all of them:
 * the content collection alone would stop at the first schema error and knows nothing of folders,
 * file names, duplicates or the clock.
 */
export function validatedEvents(): AstroIntegration {
  return {
    name: 'departures-board:validated-events',
    hooks: {
      'astro:config:setup': async ({ logger }) => {
        const root = eventsDirectory();
        const report = await checkEventTree(root);
        if (report.lines.length > 0) {
          throw new Error(`Invalid event files, nothing was built:\n${report.lines.join('\n')}`);
        }
        logger.info(`${report.events.length} event files in ${root} are valid.`);
      },
    },
  };
}
