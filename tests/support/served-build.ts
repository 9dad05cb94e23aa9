import type { TestProject } from 'vitest/node';
import { buildSite, freePort, startServer } from '../../scripts/lib/local-server.ts';
import { SERVED_EVENTS_DIR } from './served-events.ts';

export const BUILD_ENVIRONMENT_SENTINEL = 'sentinel-5f1e0c2a-not-for-any-bundle';

/**
 * Global setup of the `served` tests: builds the site from their own event tree once and serves the
 * production build in workerd on a free port, as `npm start` does; tests read `baseUrl`.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** The served build's local state (D1, KV): see queryLocalD1 in scripts/lib/local-server.ts. */
    stateDir: string;
  }
}

export default async function setup(project: TestProject) {
  const port = await freePort();
  // A value only the build's environment holds: tests/security.test.ts checks that no bundle carries it.
  process.env['DEPARTURES_BOARD_BUILD_SENTINEL'] = BUILD_ENVIRONMENT_SENTINEL;
  await buildSite({ siteUrl: `http://127.0.0.1:${port}`, eventsDir: SERVED_EVENTS_DIR });
  const server = await startServer({ port });
  project.provide('baseUrl', server.baseUrl);
  project.provide('stateDir', server.stateDir);
  return server.stop;
}
