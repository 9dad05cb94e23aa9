import { cp, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import { startServer, type RunningServer } from '../../scripts/lib/local-server.ts';

/**
 * The two ways a served test file reaches workerd (docs/testing.md, "Three depths"):
 * - `inject('baseUrl')`: the one build and server of the whole run (served-build.ts), for files that only read, or
 *   write what no other file reads (their own client address for the rate limiter, their own keys). Free.
 * - `ownServer()`: a server of the file's own over the same build, with a state folder of its own (KV, D1,
 *   rate-limiter counters start empty), for files whose assertions depend on that state. About three seconds
 *   to start. A file that changes the build's files serves a copy of its own (tests/data-source-fault.test.ts).
 * Neither builds: a file that needs other content than the served fixture builds a copy of the project
 * (scripts/lib/project-copy.ts), and pays for it.
 */

/** Starts the file's own server in `beforeAll` and stops it in `afterAll`; call the returned function in tests. */
export function ownServer(): () => RunningServer {
  let server: RunningServer | undefined;
  beforeAll(async () => {
    server = await startServer({ workerConfig: path.join(inject('builtDir'), 'server/wrangler.json') });
  });
  afterAll(async () => {
    await server?.stop();
  });
  return () => {
    if (server === undefined) throw new Error('ownServer(): the server starts in beforeAll; ask for it in a test');
    return server;
  };
}

/**
 * Copies a build (the shared one, `inject('builtDir')`) to `to`, without the `.wrangler` folders the servers running on
 * it keep beside its files: wrangler makes and removes its temporary folders there while it serves, and a copy that
 * met one being removed failed with ENOENT.
 */
export const copyBuild = (from: string, to: string): Promise<void> =>
  cp(from, to, { recursive: true, filter: (source) => !source.split(path.sep).includes('.wrangler') });

/**
 * Removes a build's page templates (src/core/page-slots/templates.ts): for a copy whose data files a test wrote from
 * other events. Astro renders the templates from the build's own events, which a test cannot do without Astro, so
 * the copy's worker renders every page with Astro instead, from the data files it serves (src/server/page-templates.ts
 * falls back to it when a template cannot be read). That both ways make the same page: tests/page-templates.test.ts.
 */
export const dropPageTemplates = (buildDir: string): Promise<void> =>
  rm(path.join(buildDir, 'client', 'data', 'page-templates'), { recursive: true, force: true });
