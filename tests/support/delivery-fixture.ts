import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { DeliveryMessage } from '../../src/server/delivery/messages.ts';
import { stateDatabaseForFile, REAL_D1 } from './state-d1.ts';
import { type RecordingQueue, recordingQueue } from './recording-queue.ts';

/**
 * What the delivery path's in-process tests (push, the build's dispatch, chat webhooks, WebSub) stand on: a receiver
 * on loopback and one local D1, each started once for the file, and before each test the database emptied, the
 * receiver's records forgotten and a new recording queue, so that every test starts from nothing.
 */

export interface DeliveryFixture<Receiver, Message> {
  readonly receiver: Receiver;
  readonly db: D1Database;
  /** The queue the code under test sends to, new for each test. */
  readonly queued: RecordingQueue<Message>;
}

/**
 * Registers the calling file's hooks and returns the fixture, read through getters: what they give is there once
 * the hooks have run. `Message` is the queue's (push's unless said).
 */
export function deliveryFixture<
  Receiver extends { forget(): void; close(): Promise<void> },
  Message = DeliveryMessage,
>(options: { receiver: () => Promise<Receiver> }): DeliveryFixture<Receiver, Message> {
  const database = stateDatabaseForFile();
  let receiver: Receiver | undefined;
  let queued: RecordingQueue<Message> | undefined;
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the delivery fixture's ${what} is made by its hooks`);
    return value;
  };
  beforeAll(async () => {
    receiver = await options.receiver();
  }, REAL_D1.timeout);
  afterAll(() => receiver?.close(), REAL_D1.timeout);
  beforeEach(() => {
    queued = recordingQueue<Message>();
    started(receiver, 'receiver').forget();
  });
  return {
    get receiver() {
      return started(receiver, 'receiver');
    },
    get db() {
      return database.db;
    },
    get queued() {
      return started(queued, 'queue');
    },
  };
}
