import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { copyProject } from '../../scripts/lib/project-copy.ts';
import { buildSite, freePort, startServer } from '../../scripts/lib/local-server.ts';
import { materializeServedEvents } from './served-events.ts';

export const BUILD_ENVIRONMENT_SENTINEL = 'sentinel-5f1e0c2a-not-for-any-bundle';

/**
 * Global setup of the `served` tests: the served event tree is made from the run's clock
 * (tests/support/served-events.ts), built once in a copy of the project (never the checkout's dist/, .astro or
 * .wrangler: a `npm start` serving from them keeps answering) and served as `npm start` does, in workerd on a
 * free port with a state folder of its own. Tests read what they need with `inject`.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** The served build's local state (D1, KV): see queryLocalD1 in scripts/lib/local-d1.ts. */
    stateDir: string;
    /** The served build's output folder (`client/`, `server/wrangler.json`), for files that serve a copy of it. */
    builtDir: string;
    /** The event tree that was built, made from the run's clock (its marker beside it, its git history in it). */
    servedEventsDir: string;
    /** The clock the served event tree was made for, in milliseconds. */
    servedEventsNow: number;
  }
}

export default async function setup(project: TestProject) {
  const port = await freePort();
  // A value only the build's environment holds: tests/security.test.ts checks that no bundle carries it.
  process.env['DEPARTURES_BOARD_BUILD_SENTINEL'] = BUILD_ENVIRONMENT_SENTINEL;
  const served = await materializeServedEvents();
  const projectDir = await copyProject('departures-board-served-');
  const builtDir = path.join(projectDir, 'dist');
  await buildSite({ siteUrl: `http://127.0.0.1:${port}`, eventsDir: served.eventsDir, projectDir, outDir: builtDir });
  const server = await startServer({ port, workerConfig: path.join(builtDir, 'server/wrangler.json') });
  project.provide('baseUrl', server.baseUrl);
  project.provide('stateDir', server.stateDir);
  project.provide('builtDir', builtDir);
  project.provide('servedEventsDir', served.eventsDir);
  project.provide('servedEventsNow', served.now.getTime());
  return async () => {
    await server.stop();
    await rm(projectDir, { recursive: true, force: true });
    await rm(path.dirname(served.eventsDir), { recursive: true, force: true });
  };
}
