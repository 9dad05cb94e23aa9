import path from 'node:path';
import { DATASET_MARKER_NAME } from '../core/content/event-tree.ts';

/** The events folder of the project; git keeps no empty folder, so a clone without events has none. */
export const DEFAULT_EVENTS_DIRECTORY = 'content/events';

/**
 * Where the event tree lives: `content/events`, or the folder named by `EVENTS_DIR` (a synthetic benchmark
 * data set, a test fixture). Read by the validator, the content collection and the build alike.
 */
export const eventsDirectory = (): string => process.env.EVENTS_DIR ?? DEFAULT_EVENTS_DIRECTORY;

/** The data set marker (`content/dataset.json`) sits beside the events folder it describes. */
export const datasetMarkerFile = (eventsRoot: string): string =>
  path.join(path.dirname(path.resolve(eventsRoot)), DATASET_MARKER_NAME);
