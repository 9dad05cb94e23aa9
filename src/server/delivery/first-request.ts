import { BUILD_ID } from '../build-id.ts';
import { type BuildDispatchBindings, startBuildDispatch } from './build-dispatch.ts';

/**
 * The worker's hook on every request (functions/worker.ts), called once the answer is made: on an isolate's first
 * request only, it hands the start of this build's dispatch (build-dispatch.ts: one D1 insert and one queue send,
 * both I/O) to `waitUntil`; every later request checks one flag. The answer itself pays nothing; the invocation
 * pays about 0.3 ms of CPU once per isolate (docs/performance.md). Imported statically: the
 * module is a few hundred bytes evaluated with the worker, while a dynamic import cost 0.6 ms more per isolate in
 * the CPU benchmark. One try per isolate: an isolate whose claim failed leaves the build to its next isolate and to
 * the minute cron, rather than asking D1 on every request.
 */

let noticed = false;

export function noticeBuildOnce(env: BuildDispatchBindings, context: Pick<ExecutionContext, 'waitUntil'>): void {
  if (noticed) return;
  noticed = true;
  // Unbuilt code (in-process tests) has no build id, and `astro dev` has no build.
  const buildId = BUILD_ID;
  if (buildId === undefined || import.meta.env.DEV) return;
  context.waitUntil(startBuildDispatch(env, buildId, new Date()));
}
