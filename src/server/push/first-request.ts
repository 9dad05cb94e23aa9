import { BUILD_ID } from '../build-id.ts';
import type { BuildDispatchBindings } from './build-dispatch.ts';

/**
 * The worker's hook on every request (functions/worker.ts): on an isolate's first request only, it hands the
 * start of this build's dispatch (build-dispatch.ts) to `waitUntil`, after which the answer goes on unchanged.
 * What the request itself runs is a flag and a call: the module that claims and enqueues is imported inside the
 * `waitUntil` promise, and its two D1 and queue calls are I/O. One try per isolate: an isolate whose claim failed
 * leaves the build to its next isolate and to the minute cron, rather than asking D1 on every request.
 */

let noticed = false;

export function noticeBuildOnce(env: BuildDispatchBindings, context: Pick<ExecutionContext, 'waitUntil'>): void {
  if (noticed) return;
  noticed = true;
  // Unbuilt code (in-process tests) has no build id, and `astro dev` has no build.
  const buildId = BUILD_ID;
  if (buildId === undefined || import.meta.env.DEV) return;
  context.waitUntil(
    import('./build-dispatch.ts').then(({ startBuildDispatch }) => startBuildDispatch(env, buildId, new Date())),
  );
}
