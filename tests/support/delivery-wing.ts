import { afterAll, beforeAll, beforeEach } from 'vitest';
import { assetsBinding, type BuiltFiles, fixtureFiles } from '../../scripts/lib/built-files.ts';
import type { ChannelName } from '../../src/core/delivery/channels.ts';
import type { Event } from '../../src/core/schemas.ts';
import type { Locale } from '../../src/core/vocabulary.ts';
import type { DeliveryBindings } from '../../src/server/delivery/bindings.ts';
import {
  DEAD_LETTER_QUEUE_NAME,
  DELIVERY_QUEUE_NAME,
  type DeliveryMessage,
} from '../../src/server/delivery/messages.ts';
import { saveSubscriber } from '../../src/server/delivery/subscribers.ts';
import { runDeliveryQueue } from '../../src/server/delivery/worker-handlers.ts';
import { type ChatReceiver, startChatReceiver } from './chat-receiver.ts';
import { createSubscriberKeys, type PushReceiver, type SubscriberKeys, startPushReceiver } from './push-receiver.ts';
import { type RecordingQueue, recordingQueue } from './recording-queue.ts';
import { REAL_D1, stateDatabaseForFile } from './state-d1.ts';
import { vapidForTest } from './test-vapid.ts';
import { startWebSubSubscriber, type WebSubSubscriber } from './websub-subscriber.ts';

/**
 * The delivery wing's in-process tests (src/server/delivery/wing-*.test.ts) stand on this: one real local D1, and a
 * push service, a chat platform (Discord's and Slack's webhook paths) and a WebSub subscriber on loopback, each
 * started once per file; before each test the database is emptied, the receivers' records forgotten, a new
 * recording queue made and the published events reset. The test drives the clock: `T0` is a minute well ahead of
 * the real clock, so that a queue message's own time (`at`) is the clock its consumer runs at (messages.ts,
 * `clockOf`), and the test moves it by hours with no real waiting.
 */

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/**
 * Noon (UTC) of a day 60 days after the real one: later than the real clock for as long as a test runs, so the
 * clock is the test's alone; derived from the real date, so that it never goes stale.
 */
export const T0 = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS + 60 * DAY_MS + 12 * HOUR_MS);
/** `T0` moved by `minutes` (fractions allowed). */
export const at = (minutes: number): Date => new Date(T0.getTime() + minutes * MINUTE_MS);
/** `T0` moved by `seconds`. */
export const atSeconds = (seconds: number): Date => new Date(T0.getTime() + seconds * 1000);

/** A cap no test reaches (the caps themselves: functions/api/subscriber-writes.test.ts). */
const NO_CAP = 1_000_000;

export type WingEnv = DeliveryBindings & { DB: D1Database; DELIVERY_QUEUE: Queue };

export interface Wing {
  readonly db: D1Database;
  readonly queued: RecordingQueue<DeliveryMessage>;
  readonly push: PushReceiver;
  readonly chat: ChatReceiver;
  readonly websub: WebSubSubscriber;
  /** The test's VAPID key pair: `secrets` as the worker reads them, `keys` as a push service checks them. */
  readonly vapid: ReturnType<typeof vapidForTest>;
  /** The events the build publishes (its `/data/board.json` and feeds), a history event by default. */
  published: Event[];
  /** The built files of `published`, as the worker's ASSETS serves them (built at `T0`). */
  files(): BuiltFiles;
  /** The worker's bindings: the wing wired, the VAPID secrets, the loopback switch on; `overrides` replace. */
  env(overrides?: Partial<WingEnv>): WingEnv;
  /** A browser's push subscription on the push receiver, to `topics`; its id, path and keys. */
  pushSubscriber(
    topics: readonly string[],
    options?: { locale?: Locale; expiresAt?: Date | null },
  ): Promise<{ id: number; path: string; keys: SubscriberKeys }>;
  /** A Discord or Slack webhook on the chat receiver (each platform's documented path form). */
  chatSubscriber(
    platform: 'discord' | 'slack',
    topics: readonly string[],
    options?: { locale?: Locale },
  ): Promise<{ id: number; path: string }>;
  /** A verified WebSub subscription of `topic` with its own callback on the subscriber, as the hub stores one. */
  webSubSubscriber(
    topic: string,
    options?: { secret?: string; expiresAt?: Date | null },
  ): Promise<{ id: number; path: string }>;
  /**
   * Hands what the queue holds to the worker's queue handler, in batches of at most 100 as Cloudflare does, and what
   * that enqueues in turn, until nothing is left. Returns the messages the handler retried.
   */
  drain(options?: { env?: WingEnv; fetcher?: typeof fetch }): Promise<DeliveryMessage[]>;
  /** Hands `messages` to the handler as one batch of `queue` (the dead-letter queue's name reads them back). */
  handle(
    messages: readonly DeliveryMessage[],
    options?: { queue?: string; env?: WingEnv; fetcher?: typeof fetch },
  ): Promise<DeliveryMessage[]>;
  /** The rows of `sql`. */
  rows<T = Record<string, unknown>>(sql: string, ...bindings: unknown[]): Promise<T[]>;
}

export function deliveryWing(): Wing {
  const database = stateDatabaseForFile();
  const vapid = vapidForTest();
  let receivers: { push: PushReceiver; chat: ChatReceiver; websub: WebSubSubscriber } | undefined;
  let queued: RecordingQueue<DeliveryMessage> | undefined;
  let built: { key: string; files: BuiltFiles } | undefined;
  let sequence = 0;
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the delivery wing is set up by its hooks');
    return value;
  };

  beforeAll(async () => {
    const [push, chat, websub] = await Promise.all([startPushReceiver(), startChatReceiver(), startWebSubSubscriber()]);
    receivers = { push, chat, websub };
  }, REAL_D1.timeout);
  afterAll(async () => {
    await Promise.all([receivers?.push.close(), receivers?.chat.close(), receivers?.websub.close()]);
  }, REAL_D1.timeout);

  const wing: Wing = {
    get db() {
      return database.db;
    },
    get queued() {
      return started(queued);
    },
    get push() {
      return started(receivers).push;
    },
    get chat() {
      return started(receivers).chat;
    },
    get websub() {
      return started(receivers).websub;
    },
    vapid,
    published: [],
    files() {
      const key = JSON.stringify(wing.published);
      if (built?.key !== key) built = { key, files: fixtureFiles(wing.published, T0) };
      return built.files;
    },
    env(overrides = {}) {
      const assets = {
        fetch: (input: RequestInfo | URL, init?: RequestInit) => assetsBinding(wing.files()).fetch(input, init),
      };
      return {
        ...vapid.secrets,
        ALLOW_LOOPBACK_RECEIVERS: 'true',
        ASSETS: assets,
        DB: database.db,
        DELIVERY_QUEUE: wing.queued.queue as unknown as Queue,
        ...overrides,
      };
    },
    async pushSubscriber(topics, { locale = 'en', expiresAt = null } = {}) {
      sequence += 1;
      const path = `/push/${sequence}`;
      const keys = createSubscriberKeys();
      const endpoint = `${wing.push.origin}${path}`;
      const id = await save(
        'push',
        endpoint,
        endpoint,
        locale,
        { p256dh: keys.p256dh, auth: keys.auth },
        expiresAt,
        topics,
      );
      return { id, path, keys };
    },
    async chatSubscriber(platform, topics, { locale = 'en' } = {}) {
      sequence += 1;
      // Discord's execute-webhook path and Slack's incoming-webhook path (src/core/outbound/chat-platform.ts).
      const path =
        platform === 'discord'
          ? `/api/webhooks/${sequence}/token-${sequence}`
          : `/services/T0/B${sequence}/secret${sequence}`;
      const url = `${wing.chat.origin}${path}`;
      return { id: await save(platform, url, url, locale, {}, null, topics), path };
    },
    async webSubSubscriber(topic, { secret, expiresAt = null } = {}) {
      sequence += 1;
      const path = `/callback/${sequence}`;
      const callback = `${wing.websub.origin}${path}`;
      // What the subscriber keeps once its subscription was verified: its secret, to check each delivery with.
      wing.websub.intend('subscribe', topic, path, secret === undefined ? {} : { secret });
      const data = { topic, secret: secret ?? null };
      return { id: await save('websub', `${topic} ${callback}`, callback, null, data, expiresAt, [topic]), path };
    },
    async drain({ env, fetcher } = {}) {
      const retried: DeliveryMessage[] = [];
      for (let messages = wing.queued.take(); messages.length > 0; messages = wing.queued.take())
        for (let start = 0; start < messages.length; start += 100)
          retried.push(
            ...(await wing.handle(
              messages.slice(start, start + 100).map(({ body }) => body),
              { ...(env === undefined ? {} : { env }), ...(fetcher === undefined ? {} : { fetcher }) },
            )),
          );
      return retried;
    },
    async handle(messages, { queue = DELIVERY_QUEUE_NAME, env = wing.env(), fetcher } = {}) {
      const retried: DeliveryMessage[] = [];
      const batch = {
        queue,
        messages: messages.map((body, index) => ({
          id: `m${index}`,
          timestamp: T0,
          attempts: 1,
          body,
          ack() {},
          retry() {
            retried.push(body);
          },
        })),
        ackAll() {},
        retryAll() {
          retried.push(...messages);
        },
      } as unknown as MessageBatch<DeliveryMessage>;
      await runDeliveryQueue(batch, env, fetcher);
      return retried;
    },
    async rows<T>(sql: string, ...bindings: unknown[]) {
      return (
        await database.db
          .prepare(sql)
          .bind(...bindings)
          .all<T>()
      ).results;
    },
  };

  async function save(
    channel: ChannelName,
    key: string,
    address: string,
    locale: Locale | null,
    data: Record<string, unknown>,
    expiresAt: Date | null,
    topics: readonly string[],
  ): Promise<number> {
    const write = { channel, key, address, locale, data, expiresAt, topics };
    const outcome = await saveSubscriber(database.db, write, NO_CAP, at(-60));
    if (outcome !== 'created') throw new Error(`${channel} subscriber ${key} was ${outcome}`);
    const row = await database.db
      .prepare('SELECT id FROM subscribers WHERE channel = ?1 AND key = ?2')
      .bind(channel, key)
      .first<{ id: number }>();
    return row!.id;
  }

  beforeEach(() => {
    if (T0.getTime() < Date.now() + DAY_MS) throw new Error('the test clock must run ahead of the real one');
    queued = recordingQueue<DeliveryMessage>();
    receivers?.push.forget();
    receivers?.chat.forget();
    receivers?.websub.forget();
    wing.published = [];
  });

  return wing;
}

export { DEAD_LETTER_QUEUE_NAME };
