import type { PushBindings } from '../context.ts';
import { consumePushBatch } from './consumer.ts';
import { dispatchDue } from './dispatch.ts';
import type { DispatchMessage, PushQueueMessage } from './messages.ts';
import type { WebSubQueueMessage } from '../websub/messages.ts';
import { allowsLoopbackReceiver, readVapidKeys } from './vapid.ts';

/**
 * The worker's `scheduled()` and `queue()` bodies (functions/worker.ts stays a thin entry). Without the push
 * bindings or the VAPID secrets push is off: the cron claims nothing (so nothing is marked sent that was not),
 * and queued messages wait for the queue's retries.
 */

type WorkerPushBindings = PushBindings & { ASSETS: Pick<Fetcher, 'fetch'> };

/**
 * One minute's dispatch. A run that fails (D1 locked or gone, the data set missing, the queue refusing) logs
 * what failed and ends normally: nobody retries a cron that throws, it only shows as an error (and as a 500 on
 * the local `/__scheduled`). Its work is left for the next minute's run, which finds the same due pairs: a
 * claim is made in one D1 batch, and a fan-out the queue refused has its claims given back (dispatch.ts).
 */
export async function runScheduledDispatch(env: WorkerPushBindings, now: Date): Promise<void> {
  const { PUSH_DB, PUSH_QUEUE } = env;
  if (PUSH_DB === undefined || PUSH_QUEUE === undefined || readVapidKeys(env) === null) return;
  try {
    const result = await dispatchDue(dispatchBindings(env, PUSH_DB, PUSH_QUEUE), now);
    if (result.enqueued + result.suppressed > 0) console.log('push dispatch', JSON.stringify(result));
  } catch (error) {
    console.error(`push dispatch of ${now.toISOString()} failed; the next minute's run tries again:`, error);
  }
}

// A `dispatch` message (a new build's first request asked for it: build-dispatch.ts) runs the same `dispatchDue`
// as the cron, at the consumer's clock; unlike the cron's run, a failed one is retried by the queue.
/** The queue's batches. */
export async function runPushQueue(batch: MessageBatch<PushQueueMessage>, env: WorkerPushBindings): Promise<void> {
  const { PUSH_DB, PUSH_QUEUE } = env;
  const vapid = readVapidKeys(env);
  if (PUSH_DB === undefined || PUSH_QUEUE === undefined || vapid === null) {
    batch.retryAll();
    return;
  }
  const dispatch = async ({ buildId }: DispatchMessage, now: Date) => {
    const result = await dispatchDue(dispatchBindings(env, PUSH_DB, PUSH_QUEUE), now);
    console.log(`push dispatch of build ${buildId}`, JSON.stringify(result));
  };
  await consumePushBatch(
    batch,
    { PUSH_DB, PUSH_QUEUE: PUSH_QUEUE as Queue<PushQueueMessage> },
    { vapid, allowLoopbackReceiver: allowsLoopbackReceiver(env), dispatch },
  );
}

/** What `dispatchDue` gets, whether the cron or a new build's `dispatch` message runs it. */
function dispatchBindings(env: WorkerPushBindings, db: D1Database, queue: Queue) {
  const { ASSETS, WEBSUB_QUEUE } = env;
  return {
    ASSETS,
    PUSH_DB: db,
    PUSH_QUEUE: queue as Queue<PushQueueMessage>,
    ...(WEBSUB_QUEUE === undefined ? {} : { WEBSUB_QUEUE: WEBSUB_QUEUE as Queue<WebSubQueueMessage> }),
  };
}
