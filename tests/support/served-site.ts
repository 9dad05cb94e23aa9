import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import { startServer, type RunningServer } from '../../scripts/lib/local-server.ts';

/**
 * The two ways a served test file reaches workerd (docs/architecture.md, "Tests at three depths"):
 * - `sharedSite()`: the one build and server of the whole run (served-build.ts), for files that only read, or
 *   write what no other file reads (their own client address for the rate limiter, their own keys). Free.
 * - `ownServer()`: a server of the file's own over the same build, with a state folder of its own (KV, D1,
 *   rate-limiter counters start empty), for files whose assertions depend on that state; `copyBuild` serves a
 *   copy of the build whose files the test may change (`server.buildDir`). About three seconds to start.
 * Neither builds: a file that needs other content than the served fixture builds it in its Astro turn
 * (astro-turn.ts), and pays for it.
 */

export const sharedSite = (): { baseUrl: string } => ({ baseUrl: inject('baseUrl') });

export interface OwnServer extends RunningServer {
  /** The build this server serves: dist/ itself, or the copy when `copyBuild` was asked for. */
  buildDir: string;
}

/** Starts the file's own server in `beforeAll` and stops it in `afterAll`; call the returned function in tests. */
export function ownServer(
  options: { copyBuild?: boolean; prepare?: (buildDir: string) => Promise<void> } = {},
): () => OwnServer {
  let server: OwnServer | undefined;
  let copy: string | undefined;
  beforeAll(async () => {
    let buildDir = path.resolve('dist');
    if (options.copyBuild) {
      copy = await mkdtemp(path.join(tmpdir(), 'departures-board-dist-'));
      await cp(buildDir, copy, { recursive: true });
      buildDir = copy;
    }
    await options.prepare?.(buildDir);
    const running = await startServer({ workerConfig: path.join(buildDir, 'server/wrangler.json') });
    server = { ...running, buildDir };
  });
  afterAll(async () => {
    await server?.stop();
    if (copy) await rm(copy, { recursive: true, force: true });
  });
  return () => {
    if (server === undefined) throw new Error('ownServer(): the server starts in beforeAll; ask for it in a test');
    return server;
  };
}
