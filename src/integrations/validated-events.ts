import type { AstroIntegration } from 'astro';
import { SAMPLE_DATA_CONSTANT } from '../server/sample-data.ts';
import { checkEventTree } from '../node/check-event-tree.ts';
import { InvalidDatasetMarker, readDatasetMarker } from '../node/dataset-marker.ts';
import { EventsFolderMissing } from '../node/event-files.ts';
import { eventsDirectory } from '../node/events-directory.ts';

export type ValidatedEventsIntegration = AstroIntegration & {
  /** Whether the data set marker says the events are the sample set; known once the config is set up. */
  servesSampleData(): boolean;
};

/** What is wrong is said in plain lines and the command stops: a stack trace would only bury them. */
class Refusal extends Error {
  override name = 'Refusal';
}

/**
 * Refuses to start a build (or the dev server) from an event tree with any bad file, listing all of them:
 * the content loader (src/content.config.ts) reads the same files through the same reader and keeps only
 * what this check accepts. Also reads the data set marker once and hands it to the worker and the pages.
 */
export function validatedEvents(): ValidatedEventsIntegration {
  let sample = false;
  return {
    name: 'departures-board:validated-events',
    servesSampleData: () => sample,
    hooks: {
      'astro:config:setup': async ({ logger, updateConfig }) => {
        const root = eventsDirectory();
        try {
          const report = await checkEventTree(root);
          if (report.lines.length > 0)
            throw new Refusal(`Invalid event files, nothing was built:\n${report.lines.join('\n')}`);
          sample = (await readDatasetMarker(root)).sample;
          logger.info(
            `${report.events.length} event files in ${root} are valid${sample ? ' (the fictional sample set)' : ''}.`,
          );
        } catch (error) {
          if (
            !(error instanceof Refusal || error instanceof EventsFolderMissing || error instanceof InvalidDatasetMarker)
          )
            throw error;
          logger.error(error.message);
          process.exit(1);
        }
        updateConfig({ vite: { define: { [SAMPLE_DATA_CONSTANT]: JSON.stringify(sample) } } });
      },
    },
  };
}
