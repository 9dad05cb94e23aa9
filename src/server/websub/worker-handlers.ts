import { BASE_URL } from '../base-url.ts';
import type { PushBindings } from '../context.ts';
import { allowsLoopbackReceiver } from '../push/vapid.ts';
import { consumeWebSubBatch } from './consumer.ts';
import type { WebSubQueueMessage } from './messages.ts';

/**
 * The worker's `queue()` body for the WebSub queue (functions/worker.ts imports this module only when such a batch
 * comes). Without the database or the queue binding the messages wait for the queue's retries.
 */
export async function runWebSubQueue(
  batch: MessageBatch<WebSubQueueMessage>,
  env: PushBindings & { ASSETS: Pick<Fetcher, 'fetch'> },
): Promise<void> {
  const { PUSH_DB, WEBSUB_QUEUE, ASSETS } = env;
  if (PUSH_DB === undefined || WEBSUB_QUEUE === undefined) {
    batch.retryAll();
    return;
  }
  await consumeWebSubBatch(
    batch.messages,
    { ASSETS, PUSH_DB, WEBSUB_QUEUE: WEBSUB_QUEUE as Queue<WebSubQueueMessage> },
    { baseUrl: BASE_URL, allowLoopbackReceiver: allowsLoopbackReceiver(env) },
  );
}
