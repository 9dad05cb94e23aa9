import { IN_ASTRO_DEV } from './build-id.ts';

/**
 * The one way to the built files (the data files, the prerendered timeline, feeds, calendars and track record),
 * in every mode: the `ASSETS` binding of `withBuiltFiles(env)`. The worker entry hands those bindings to the edge
 * routes (functions/worker.ts), and the pages' data takes its files from them too (page-data.ts).
 *
 * `npm start`, a deployment and the served tests read the platform's asset store; the in-process tests hand a
 * binding over a fixture's files. `astro dev` builds nothing: its ASSETS binding holds only public/, and Astro
 * renders each built file's prerendered route on demand. There the binding is a request to the dev server
 * itself, marked as a built file's, which the worker hands straight to Astro rather than to the edge route of
 * the same path (`/api/timeline` is both).
 */

const BUILT_FILE_HEADER = 'X-Built-File';

/** `astro dev`'s stand-in for ASSETS: the built file's route, asked of the dev server (GET only, as ASSETS). */
const devServerFiles = {
  fetch: (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const headers = new Headers(request.headers);
    headers.set(BUILT_FILE_HEADER, '1');
    return fetch(request.url, { headers });
  },
} as unknown as Fetcher;

/** `env` with the ASSETS every reader of built files uses: the platform's, or `astro dev`'s stand-in. */
export function withBuiltFiles<Bindings extends { ASSETS: Fetcher }>(env: Bindings): Bindings {
  return IN_ASTRO_DEV ? { ...env, ASSETS: devServerFiles } : env;
}

/** In `astro dev`, whether `request` is the stand-in's, asking for a built file (only Astro renders those). */
export const asksForBuiltFile = (request: Request): boolean => IN_ASTRO_DEV && request.headers.has(BUILT_FILE_HEADER);

/**
 * A built file's reading kept for the isolate's life under `path` (a built file is the same until the next deploy),
 * or, in `astro dev`, made again at every request: there a built file is rendered from the event files as they are,
 * so that an edited event shows at the next request without a restart. A failed read is not kept: the next request
 * tries again.
 */
export function readPerIsolate<T>(kept: Map<string, Promise<T>>, path: string, read: () => Promise<T>): Promise<T> {
  if (IN_ASTRO_DEV) return read();
  let reading = kept.get(path);
  if (reading === undefined) {
    reading = read();
    reading.catch(() => kept.delete(path));
    kept.set(path, reading);
  }
  return reading;
}
