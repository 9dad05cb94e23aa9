import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { copyProject } from '../../scripts/lib/project-copy.ts';
import { buildSite, reservePort, startServer, type RunningServer } from '../../scripts/lib/local-server.ts';
import { materializeServedEvents } from './served-events.ts';

export const BUILD_ENVIRONMENT_SENTINEL = 'sentinel-5f1e0c2a-not-for-any-bundle';
/** The repository the served build links to (commits, and each event's report link), whatever the environment says. */
export const SERVED_REPOSITORY_URL = 'https://code.example/owner/departures-board';

/**
 * Global setup of the `served` tests: the served event tree is made from the run's clock
 * (tests/support/served-events.ts), built once in a copy of the project (never the checkout's dist/, .astro or
 * .wrangler: a `npm start` serving from them keeps answering) and served as `npm start` does, in workerd on a
 * free port with a state folder of its own. Tests read what they need with `inject`.
 *
 * Vitest starts no test of any project before every global setup has returned, so the build and the server start
 * in the background: the core and node files run meanwhile. Each served file waits for them in its setup
 * (tests/support/served-ready.ts), which reads the outcome from `servedReadyFile`.
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
    /** Written once the build is served (`{"ok":true}`) or has failed (`{"ok":false,"error":"…"}`). */
    servedReadyFile: string;
  }
}

export interface ServedOutcome {
  ok: boolean;
  error?: string;
}

export default async function setup(project: TestProject) {
  // Held through the build, whose site address names it, until the server binds it.
  const { port, release: releasePort } = await reservePort();
  // A value only the build's environment holds: tests/security.test.ts checks that no bundle carries it.
  process.env['DEPARTURES_BOARD_BUILD_SENTINEL'] = BUILD_ENVIRONMENT_SENTINEL;
  const served = await materializeServedEvents();
  const projectDir = await copyProject('departures-board-served-');
  const builtDir = path.join(projectDir, 'dist');
  const stateDir = await mkdtemp(path.join(tmpdir(), 'departures-board-served-state-'));
  const readyFile = path.join(projectDir, 'served-ready.json');

  let server: RunningServer | undefined;
  const serving = (async () => {
    try {
      await buildSite({
        siteUrl: `http://127.0.0.1:${port}`,
        eventsDir: served.eventsDir,
        projectDir,
        outDir: builtDir,
        repositoryUrl: SERVED_REPOSITORY_URL,
      });
    } catch (error) {
      await releasePort();
      throw error;
    }
    server = await startServer({
      port: { port, release: releasePort },
      persistTo: stateDir,
      workerConfig: path.join(builtDir, 'server/wrangler.json'),
    });
  })().then(
    () => writeFile(readyFile, JSON.stringify({ ok: true } satisfies ServedOutcome)),
    (error: Error) => writeFile(readyFile, JSON.stringify({ ok: false, error: error.message } satisfies ServedOutcome)),
  );

  project.provide('baseUrl', `http://127.0.0.1:${port}`);
  project.provide('stateDir', stateDir);
  project.provide('builtDir', builtDir);
  project.provide('servedEventsDir', served.eventsDir);
  project.provide('servedEventsNow', served.now.getTime());
  project.provide('servedReadyFile', readyFile);
  return async () => {
    await serving;
    await server?.stop();
    await rm(stateDir, { recursive: true, force: true });
    await rm(projectDir, { recursive: true, force: true });
    await rm(path.dirname(served.eventsDir), { recursive: true, force: true });
  };
}
