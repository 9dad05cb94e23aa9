/**
 * The event tree the served tests build and serve: a fixture of their own (a copy of the sample set, with
 * its marker), so that `npm test` passes whatever events a deployment keeps in content/events.
 */
export const SERVED_EVENTS_DIR = 'tests/fixtures/served/events';
