import type { DeliveryMessage } from '../../src/server/delivery/messages.ts';

/**
 * A queue that records what is sent to it, in place of a Cloudflare queue, so that a test hands the consumer each
 * message itself; and the drain that hands push's recorded messages to a consumer as the real queue would.
 */

export interface QueuedMessage<Message = DeliveryMessage> {
  body: Message;
  delaySeconds: number | undefined;
}

export interface RecordingQueue<Message = DeliveryMessage> {
  /** The producer the code under test is given. */
  queue: {
    send(body: Message, options?: QueueSendOptions): Promise<void>;
    sendBatch(messages: Iterable<MessageSendRequest<Message>>): Promise<void>;
  };
  /** Every message sent and not yet taken, in order. */
  sent: QueuedMessage<Message>[];
  /** Takes every message sent so far, leaving none. */
  take(): QueuedMessage<Message>[];
}

/**
 * A stand-in producer: keeps every message in order, to be handed to the consumer by the test. `failing`: a queue
 * the platform cannot reach, whose every send throws.
 */
export function recordingQueue<Message = DeliveryMessage>({ failing = false } = {}): RecordingQueue<Message> {
  const sent: QueuedMessage<Message>[] = [];
  const reachable = () => {
    if (failing) throw new Error('queue down');
  };
  const queue = {
    async send(body: Message, options?: QueueSendOptions) {
      reachable();
      sent.push({ body, delaySeconds: options?.delaySeconds });
    },
    async sendBatch(messages: Iterable<MessageSendRequest<Message>>) {
      reachable();
      for (const message of messages) sent.push({ body: message.body, delaySeconds: message.delaySeconds });
    },
  };
  return { queue, sent, take: () => sent.splice(0, sent.length) };
}

/**
 * Hands what `queued` holds to `consume` as push's queue hands it to the worker, one batch at a time with every
 * message on its first attempt, and what that enqueues in turn, until nothing is left. The messages carry the
 * timestamp `at` (else the time the batch is made). A message the consumer retries is handed to `retry`; by
 * default a retry fails the test, which then expects every message delivered or given up.
 */
export async function drainDeliveryQueue(
  queued: RecordingQueue<DeliveryMessage>,
  consume: (batch: MessageBatch<DeliveryMessage>) => Promise<void>,
  {
    at,
    retry = () => {
      throw new Error('a message failed');
    },
  }: { at?: Date; retry?: (body: DeliveryMessage) => void } = {},
): Promise<void> {
  for (let messages = queued.take(); messages.length > 0; messages = queued.take()) {
    const batch = {
      queue: 'departures-board-delivery',
      messages: messages.map(({ body }, index) => ({
        id: String(index),
        timestamp: at ?? new Date(),
        attempts: 1,
        body,
        ack() {},
        retry() {
          retry(body);
        },
      })),
      ackAll() {},
      retryAll() {},
    } as unknown as MessageBatch<DeliveryMessage>;
    await consume(batch);
  }
}
