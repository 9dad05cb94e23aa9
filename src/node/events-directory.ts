/**
 * Where the event tree lives: `content/events`, or the folder named by `EVENTS_DIR` (a synthetic benchmark
 * data set, a test fixture). Read by the validator, the content collection and the build alike.
 */
export const eventsDirectory = (): string => process.env.EVENTS_DIR ?? 'content/events';
