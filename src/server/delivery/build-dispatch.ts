import type { DeliveryProducer, DispatchMessage } from './messages.ts';

/**
 * A new build's events leave at once (decisions.md, "Push that leaves at once"; docs/delivery.md, "A new build"): the
 * first request an isolate of a build serves claims the build in D1, and the isolate that wins the claim enqueues
 * one `dispatch` message; the queue's consumer then runs the dispatch the minute cron runs (`dispatchDue`). The
 * cron stays as the safety net: whatever this misses (a claim or an enqueue that failed, a reset taking effect
 * later) the next minute's run finds.
 *
 * Why through the queue rather than in the request's `waitUntil`: work handed to `waitUntil` runs in the same
 * invocation as the request, within its CPU limit (10 ms on the Workers Free plan), and the dispatch reads and
 * parses the build's `/data/board.json` and claims its due pairs: milliseconds of CPU at a long history, on top
 * of the cold start the first request already pays. Here the request pays two small I/O calls.
 */

export interface BuildDispatchBindings {
  DB?: D1Database;
  DELIVERY_QUEUE?: Pick<DeliveryProducer, 'send'>;
}

export type BuildDispatchOutcome =
  /** Delivery is off (no D1 or no queue): nothing is claimed, as the cron claims nothing then. */
  | 'off'
  /** This isolate claimed the build and enqueued its dispatch. */
  | 'enqueued'
  /** Another isolate (or an earlier start) claimed it: nothing to do. */
  | 'claimed-before'
  /** The claim or the enqueue failed and was logged; the claim, if made, was given back; the cron remains. */
  | 'failed';

// The `dispatch_state` row that says a build's dispatch was started: one per build, never reused.
export const buildMark = (buildId: string): string => `build:${buildId}`;

// The claim is one insert into `dispatch_state` that only the first of any number of racing isolates gets a row
// back from; a build served again later (a rollback) finds its own row and does nothing, while every pair it
// could have sent is claimed in `notifications` anyway.
/** Claims `buildId` and enqueues its dispatch when no isolate did before; never throws (it runs in `waitUntil`). */
export async function startBuildDispatch(
  env: BuildDispatchBindings,
  buildId: string,
  now: Date,
): Promise<BuildDispatchOutcome> {
  const { DB: db, DELIVERY_QUEUE: queue } = env;
  if (db === undefined || queue === undefined) return 'off';
  const mark = buildMark(buildId);
  let claimed = false;
  try {
    const row = await db
      .prepare('INSERT INTO dispatch_state (name, value) VALUES (?1, ?2) ON CONFLICT (name) DO NOTHING RETURNING name')
      .bind(mark, now.toISOString())
      .first<{ name: string }>();
    if (row === null) return 'claimed-before';
    claimed = true;
    const message: DispatchMessage = { type: 'dispatch', buildId };
    await queue.send(message, { contentType: 'json' });
    return 'enqueued';
  } catch (error) {
    console.error(`dispatch of build ${buildId} not started; the next minute's cron dispatches it:`, error);
    // Given back, so that this build's next isolate tries again before the cron does.
    if (claimed)
      await db
        .prepare('DELETE FROM dispatch_state WHERE name = ?1')
        .bind(mark)
        .run()
        .catch(() => undefined);
    return 'failed';
  }
}
