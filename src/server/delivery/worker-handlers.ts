import { BASE_URL } from '../base-url.ts';
import { allowsLoopbackReceivers } from '../loopback.ts';
import type { DeliveryBindings } from './bindings.ts';
import { channelNamed } from './channels/index.ts';
import { readBackDeadLetter } from './dead-letters.ts';
import { deliver } from './deliver.ts';
import { dispatchDue } from './dispatch.ts';
import { fanOut } from './fan-out.ts';
import { clockOf, DEAD_LETTER_QUEUE_NAME, type DeliveryMessage } from './messages.ts';
import { recoverDeliveries } from './recover.ts';

/**
 * The worker's `scheduled()` and `queue()` bodies for the delivery wing (functions/worker.ts stays a thin entry and
 * loads this module only when a cron or a batch comes). Without the state database or the queue, delivery is off:
 * the cron claims nothing and queued messages wait for the queue's retries.
 */

type WingBindings = DeliveryBindings & { DB: D1Database; DELIVERY_QUEUE: Queue };

const wired = (env: DeliveryBindings): env is WingBindings => env.DB !== undefined && env.DELIVERY_QUEUE !== undefined;

/**
 * One minute's delivery work at the cron's clock: the dispatch of what became due, then the recovery of whatever is
 * due and not held (recover.ts). Each part that fails (D1 locked or gone, the data set missing, the queue refusing)
 * logs what failed and the run ends normally: nobody retries a cron that throws; the next minute's run finds the same
 * work, as nothing is lost by a run that did not happen. Answers the parts that failed (`dispatch`, `recovery`), for
 * the run's record (src/server/health/scheduled.ts).
 */
export async function runScheduledDelivery(env: DeliveryBindings, now: Date): Promise<string[]> {
  const failed: string[] = [];
  if (!wired(env)) return failed;
  try {
    const result = await dispatchDue(env, now);
    if (result.enqueued + result.suppressed > 0) console.log('dispatch', JSON.stringify(result));
  } catch (error) {
    console.error(`the dispatch of ${now.toISOString()} failed; the next minute's run tries again:`, error);
    failed.push('dispatch');
  }
  try {
    const result = await recoverDeliveries(env, now);
    if (result.expired + result.fanouts + result.requeued > 0) console.log('recovery', JSON.stringify(result));
  } catch (error) {
    console.error(`the recovery of ${now.toISOString()} failed; the next minute's run tries again:`, error);
    failed.push('recovery');
  }
  return failed;
}

/**
 * A batch of the delivery queue or of its dead-letter queue: each message on its own, so that one that fails (D1
 * unavailable) is retried by the queue without holding up the others. Sends never throw (each failure is an outcome).
 */
export async function runDeliveryQueue(
  batch: MessageBatch<DeliveryMessage>,
  env: DeliveryBindings,
  fetcher: typeof fetch = fetch,
): Promise<void> {
  if (!wired(env)) {
    batch.retryAll();
    return;
  }
  const deadLetters = batch.queue === DEAD_LETTER_QUEUE_NAME;
  await Promise.all(
    batch.messages.map(async (message) => {
      try {
        const now = clockOf('at' in message.body ? message.body : {});
        if (deadLetters) await readBackDeadLetter(env.DB, message.body, now);
        else await consume(env, message.body, now, fetcher);
        message.ack();
      } catch (error) {
        console.error(`a ${message.body.type} message failed; the queue tries it again:`, error);
        message.retry();
      }
    }),
  );
}

async function consume(env: WingBindings, body: DeliveryMessage, now: Date, fetcher: typeof fetch): Promise<void> {
  const rules = { allowLoopbackReceiver: allowsLoopbackReceivers(env) };
  if (body.type === 'dispatch') {
    const result = await dispatchDue(env, now);
    console.log(`dispatch of build ${body.buildId}`, JSON.stringify(result));
  } else if (body.type === 'fanout') await fanOut(env, body, now);
  else if (body.type === 'deliver') await deliver(env, body, { rules, baseUrl: BASE_URL, fetcher }, now);
  else {
    const verify = channelNamed(body.channel)?.verify;
    if (verify === undefined) throw new Error(`no channel ${body.channel} verifies subscribers`);
    await verify(body.request, { env, rules, now, fetcher });
  }
}
