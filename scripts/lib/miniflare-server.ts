import { readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { withinScaled } from './load-scaled.ts';

/**
 * A built worker served by Miniflare, the local runtime under `wrangler dev`, started from this process: workerd
 * listening on the given address itself, with the bindings wrangler reads from the worker's config
 * (`unstable_getMiniflareWorkerOptions`, wrangler's own translation) and state kept where `wrangler dev --persist-to`
 * keeps it. What `wrangler dev` adds on top is left out: its proxy, a second workerd in front of the worker that
 * holds each request in a Durable Object's queue so that it can wait out a reload, which a test's server never does
 * (and production has no such hop). Through it a request cost the machine about 13 ms of CPU (both workerds and the
 * client); straight to the worker, about 5.5 (docs/testing.md).
 */

/** The part of Miniflare this uses (Miniflare's own types are those of whichever copy npm put at the top). */
interface MiniflareModule {
  Miniflare: new (options: unknown) => { ready: Promise<URL>; dispose(): Promise<void> };
  convertV4MiniflareOptions(options: Record<string, unknown>): unknown;
}

/** The Miniflare that wrangler itself runs, resolved from wrangler's own folder (no second copy to keep in step). */
const requireFromWrangler = createRequire(createRequire(import.meta.url).resolve('wrangler'));
const miniflare = (): MiniflareModule => requireFromWrangler('miniflare') as MiniflareModule;

export interface MiniflareServerOptions {
  /** wrangler's API, loaded with its environment set (`wranglerDevApi`, scripts/lib/local-server.ts). */
  wrangler: Pick<typeof import('wrangler'), 'unstable_getMiniflareWorkerOptions' | 'unstable_readConfig'>;
  /** What is started, for the messages of a start that fails or hangs ("the local server"). */
  what: string;
  /** The built worker's config (`<outDir>/server/wrangler.json`). */
  workerConfig: string;
  /** The state folder, laid out as `wrangler dev --persist-to` lays it out (scripts/lib/local-d1.ts reads it). */
  persistTo: string;
  /** Variables and secrets beyond the config's (no file or command line: they go to workerd with its config). */
  vars: Readonly<Record<string, string>>;
  host: string;
  port: number;
  onLog: (level: string, message: string) => void;
  /** Only `main`, not the modules beside it: a worker of one file (the tests' D1 gateway), not a build. */
  mainOnly?: boolean;
}

export interface MiniflareServer {
  /** The worker's address: workerd listens there. */
  url: URL;
  dispose(): Promise<void>;
}

/**
 * Astro's build is served unbundled (`no_bundle`): its entry and every chunk it may import, as wrangler's
 * `find_additional_modules` hands them to Miniflare. The entry first: Miniflare runs the first module.
 */
async function builtModules(main: string): Promise<{ type: 'ESModule'; path: string }[]> {
  const root = path.dirname(main);
  const files = (await readdir(root, { recursive: true }))
    .filter((file) => /\.m?js$/.test(file))
    .map((file) => path.join(root, file))
    .filter((file) => file !== main);
  return [main, ...files.sort()].map((file) => ({ type: 'ESModule', path: file }));
}

/**
 * Resolves once workerd listens. A start that fails (a taken port: after Miniflare's retries, 3.5 s idle, 24 s on a
 * busy machine) or hangs is stopped before the error is thrown, for a while at most, since a server that never
 * started may never stop, so that a next try does not start beside it.
 */
export async function startMiniflareServer(options: MiniflareServerOptions): Promise<MiniflareServer> {
  const config = options.wrangler.unstable_readConfig({ config: options.workerConfig });
  const { workerOptions, main } = options.wrangler.unstable_getMiniflareWorkerOptions(config);
  if (main === undefined) throw new Error(`${options.workerConfig} names no main module`);
  // The modules are listed below; the config's rules only say how to find them.
  const {
    modulesRules: _rules,
    bindings,
    ...worker
  } = workerOptions as Record<string, unknown> & {
    bindings?: Record<string, unknown>;
  };
  const { Miniflare, convertV4MiniflareOptions } = miniflare();
  const server = new Miniflare(
    convertV4MiniflareOptions({
      host: options.host,
      port: options.port,
      // wrangler dev's layout of a state folder: `<persist-to>/v3/<d1|kv|cache|…>`.
      resourcePersistencePath: path.join(options.persistTo, 'v3'),
      unsafeTriggerHandlers: true, // /cdn-cgi/local/scheduled runs the cron's handler (`--test-scheduled`)
      logRequests: false,
      handleStructuredLogs: ({ level, message }: { level: string; message: string }) => options.onLog(level, message),
      workers: [
        {
          ...worker,
          name: config.name,
          bindings: { ...bindings, ...options.vars },
          modules: options.mainOnly ? [{ type: 'ESModule', path: main }] : await builtModules(main),
          modulesRoot: path.dirname(main),
        },
      ],
    }),
  );
  try {
    return {
      url: await withinScaled(server.ready, 60_000, `${options.what} did not start`),
      dispose: () => server.dispose(),
    };
  } catch (error) {
    // The start's own error is the one to report, not a failure of the stop after it.
    await withinScaled(server.dispose(), 30_000, `${options.what} that failed to start did not stop`).catch(
      () => undefined,
    );
    throw error;
  }
}
