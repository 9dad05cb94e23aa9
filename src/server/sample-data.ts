import { SAMPLE_DATA_HEADER } from '../core/sample-data.ts';

/**
 * Whether this build serves the fictional sample set, fixed when the site is built: the build reads the
 * marker (src/integrations/validated-events.ts) and hands its answer to the worker and the prerendered
 * pages as the constant below (Vite `define`). Outside a build (unit tests in Node) it is false.
 */
declare const __DEPARTURES_SAMPLE_DATA__: boolean | undefined;

export const SERVES_SAMPLE_DATA: boolean =
  typeof __DEPARTURES_SAMPLE_DATA__ === 'boolean' && __DEPARTURES_SAMPLE_DATA__;

/** Added to every worker response (static files get the same from `_headers`). */
export const SAMPLE_DATA_HEADERS: Readonly<Record<string, string>> = SERVES_SAMPLE_DATA
  ? { [SAMPLE_DATA_HEADER]: 'true' }
  : {};

/** The name of the build-time constant, for the build that defines it. */
export const SAMPLE_DATA_CONSTANT = '__DEPARTURES_SAMPLE_DATA__';
