import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { assetsBinding, type BuiltFiles, fixtureFiles } from '../../scripts/lib/built-files.ts';
import type { ChannelName } from '../../src/core/delivery/channels.ts';
import { newHookSecret } from '../../src/core/hooks/payload.ts';
import type { Event } from '../../src/core/schemas.ts';
import { makeEvent } from '../../src/core/test-events.ts';
import type { Locale } from '../../src/core/vocabulary.ts';
import type { DeliveryBindings } from '../../src/server/delivery/bindings.ts';
import { storedHookSecret } from '../../src/server/delivery/channels/hooks/index.ts';
import {
  ACTIVATION_WINDOW_MS,
  activate,
  NtfyData,
  newActivationToken,
} from '../../src/server/delivery/channels/ntfy/index.ts';
import { dispatchDue } from '../../src/server/delivery/dispatch.ts';
import {
  DEAD_LETTER_QUEUE_NAME,
  type DeliverMessage,
  DELIVERY_QUEUE_NAME,
  type DeliveryMessage,
} from '../../src/server/delivery/messages.ts';
import { recoverDeliveries } from '../../src/server/delivery/recover.ts';
import { saveSubscriber } from '../../src/server/delivery/subscribers.ts';
import { runDeliveryQueue } from '../../src/server/delivery/worker-handlers.ts';
import { type ChatReceiver, startChatReceiver } from './chat-receiver.ts';
import { type HooksReceiver, startHooksReceiver } from './hooks-receiver.ts';
import { type NtfyReceiver, startNtfyReceiver } from './ntfy-receiver.ts';
import { createSubscriberKeys, type PushReceiver, type SubscriberKeys, startPushReceiver } from './push-receiver.ts';
import { type RecordingQueue, recordingQueue } from './recording-queue.ts';
import { REAL_D1, stateDatabaseForFile } from './state-d1.ts';
import { startTelegramReceiver, type TelegramReceiver } from './telegram-receiver.ts';
import { vapidForTest } from './test-vapid.ts';
import { startWebSubSubscriber, type WebSubSubscriber } from './websub-subscriber.ts';

/**
 * The delivery wing's in-process tests (src/server/delivery/wing-*.test.ts) stand on this: one real local D1, and a
 * push service, a chat platform (Discord's and Slack's webhook paths), a WebSub subscriber, the Telegram Bot API, an
 * ntfy server and a signed webhooks receiver on loopback, each started once per file; before each test the database is emptied, the receivers' records forgotten, a new
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

/** The bot's token the Telegram receiver knows (`TELEGRAM_BOT_TOKEN` in `env()`). */
export const TELEGRAM_TEST_TOKEN = '123456789:wing-test-token';

/** A cap no test reaches (the caps themselves: functions/api/subscriber-writes.test.ts). */
const NO_CAP = 1_000_000;

export type WingEnv = DeliveryBindings & { DB: D1Database; DELIVERY_QUEUE: Queue };

export interface Wing {
  readonly db: D1Database;
  readonly queued: RecordingQueue<DeliveryMessage>;
  readonly push: PushReceiver;
  readonly chat: ChatReceiver;
  readonly websub: WebSubSubscriber;
  readonly telegram: TelegramReceiver;
  readonly ntfy: NtfyReceiver;
  readonly hooks: HooksReceiver;
  /** The test's VAPID key pair: `secrets` as the worker reads them, `keys` as a push service checks them. */
  readonly vapid: ReturnType<typeof vapidForTest>;
  /** The events the build publishes (its `/data/board.json` and feeds), a history event by default. */
  published: Event[];
  /** The built files of `published`, as the worker's ASSETS serves them (built at `T0`). */
  files(): BuiltFiles;
  /**
   * The worker's bindings: the wing wired, the VAPID secrets, the Telegram bot's token and its API on the receiver,
   * the loopback switch on; `overrides` replace.
   */
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
  /** A Telegram chat subscribed to `topics`, as the bot's `/subscribe` stores it: its id is its address. */
  telegramSubscriber(topics: readonly string[], options?: { locale?: Locale }): Promise<{ id: number; chatId: number }>;
  /**
   * An ntfy topic on the ntfy receiver, subscribed to `topics` and already activated: stored waiting, as
   * `POST /api/ntfy` stores it, then activated by the channel's own `activate`, as the activation page's button does.
   */
  ntfySubscriber(
    topics: readonly string[],
    options?: { locale?: Locale },
  ): Promise<{ id: number; topic: string; url: string }>;
  /**
   * A signed webhook on the hooks receiver, subscribed to `topics` and already verified: stored with its new secret as
   * the channel's verification stores it, and the receiver told the secret to verify each delivery with.
   */
  hooksSubscriber(topics: readonly string[]): Promise<{ id: number; path: string; secret: string }>;
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
  let receivers:
    | {
        push: PushReceiver;
        chat: ChatReceiver;
        websub: WebSubSubscriber;
        telegram: TelegramReceiver;
        ntfy: NtfyReceiver;
        hooks: HooksReceiver;
      }
    | undefined;
  let queued: RecordingQueue<DeliveryMessage> | undefined;
  let built: { key: string; files: BuiltFiles } | undefined;
  let sequence = 0;
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the delivery wing is set up by its hooks');
    return value;
  };

  beforeAll(async () => {
    const [push, chat, websub, telegram, ntfy, hooks] = await Promise.all([
      startPushReceiver(),
      startChatReceiver(),
      startWebSubSubscriber(),
      startTelegramReceiver(TELEGRAM_TEST_TOKEN),
      startNtfyReceiver(),
      startHooksReceiver(),
    ]);
    receivers = { push, chat, websub, telegram, ntfy, hooks };
  }, REAL_D1.timeout);
  afterAll(async () => {
    await Promise.all([
      receivers?.push.close(),
      receivers?.chat.close(),
      receivers?.websub.close(),
      receivers?.telegram.close(),
      receivers?.ntfy.close(),
      receivers?.hooks.close(),
    ]);
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
    get telegram() {
      return started(receivers).telegram;
    },
    get ntfy() {
      return started(receivers).ntfy;
    },
    get hooks() {
      return started(receivers).hooks;
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
        TELEGRAM_BOT_TOKEN: TELEGRAM_TEST_TOKEN,
        TELEGRAM_API_URL: wing.telegram.origin,
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
    async telegramSubscriber(topics, { locale = 'en' } = {}) {
      sequence += 1;
      const chatId = 100_000 + sequence;
      // What functions/api/telegram.ts stores for `/subscribe`: the chat's id as key and address, no fields.
      return { id: await save('telegram', String(chatId), String(chatId), locale, {}, null, topics), chatId };
    },
    async ntfySubscriber(topics, { locale = 'en' } = {}) {
      sequence += 1;
      const topic = `wing_topic_${sequence}`;
      const url = `${wing.ntfy.origin}/${topic}`;
      const pairs = topics.map((pair) => pair.split('/'));
      const data = NtfyData.parse({
        token: newActivationToken(),
        activated: false,
        topics,
        providers: [...new Set(pairs.map(([provider]) => provider))],
        kinds: [...new Set(pairs.map(([, kind]) => kind))],
      });
      // As `POST /api/ntfy` stores it (functions/api/ntfy.ts): waiting, with no topic rows and an end a week on …
      const id = await save('ntfy', url, url, locale, data, new Date(at(-60).getTime() + ACTIVATION_WINDOW_MS), []);
      // … then activated as the page's button does: the topic rows written, the end cleared.
      await activate(database.db, id, data);
      return { id, topic, url };
    },
    async hooksSubscriber(topics) {
      sequence += 1;
      const path = `/hook/${sequence}`;
      const url = `${wing.hooks.origin}${path}`;
      const secret = newHookSecret();
      // As the channel's verification stores a hook whose URL echoed its challenge: the secret in its fields.
      const id = await save('hooks', url, url, null, { secret }, null, topics);
      if ((await storedHookSecret(database.db, url)) !== secret) throw new Error(`the hook ${url} has no secret`);
      wing.hooks.expect(path, secret);
      return { id, path, secret };
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
    // The Telegram and hooks receivers keep their records in lists of their own: emptied here.
    receivers?.telegram.received.splice(0);
    receivers?.ntfy.forget();
    receivers?.hooks.deliveries.splice(0);
    receivers?.hooks.challenges.splice(0);
    wing.published = [];
  });

  return wing;
}

/** `T0` moved by `milliseconds`, as the ledger writes a time. */
export const iso = (milliseconds: number): string => new Date(T0.getTime() + milliseconds).toISOString();

/** A reset of provider_a announced a minute before `T0`. */
export const resetEvent = (id: string, overrides: Partial<Event> = {}): Event =>
  makeEvent({ id, provider: 'provider_a', kind: 'reset', announcedAt: at(-1).toISOString(), ...overrides });

/**
 * A retry due within a minute is also carried by the queue, with a delay (deliver.ts): a `deliver` message sent with
 * `delaySeconds`. The queue may lose it; the cron still queues every retry at its due time.
 */
export const isCarried = ({ delaySeconds }: { delaySeconds: number | undefined }): boolean => (delaySeconds ?? 0) > 0;

/** What a receiver answered at `path`, in order. */
export const answersAt = (received: readonly { path: string; status: number }[], path: string): number[] =>
  received.filter((request) => request.path === path).map(({ status }) => status);

export interface LedgerRow {
  id: number;
  state: string;
  attempts: number;
  due_at: string;
  lease: string | null;
  last_error: string | null;
}

/** The steps the wing's promise tests take, over `wing`. */
export function deliverySteps(wing: Wing) {
  /**
   * The history's first dispatch, then `event` published and dispatched at `T0` and its one fan-out handed to the
   * worker: the `deliver` messages it queued, taken from the queue (the test hands them on, or loses them).
   */
  async function fannedOut(event: Event = resetEvent('news'), env: WingEnv = wing.env()): Promise<DeliverMessage[]> {
    wing.published = [makeEvent({ id: 'history', announcedAt: at(-3000).toISOString() })];
    await dispatchDue(env, at(-30));
    wing.published.push(event);
    expect(await dispatchDue(env, T0)).toMatchObject({ enqueued: 1 });
    expect(
      await wing.handle(
        wing.queued.take().map(({ body }) => body),
        { env },
      ),
    ).toEqual([]);
    const delivers = wing.queued.take().map(({ body }) => body);
    expect(delivers.every((body) => body.type === 'deliver')).toBe(true);
    return delivers as DeliverMessage[];
  }

  /**
   * The minute cron's recovery at `now`, and the worker's handling of what it queued and what that queues in turn.
   * The queue carries the soon retries at once (their clock is their due time), unless `carriers` is `lost`: the
   * cron alone.
   */
  async function recoverAt(
    now: Date,
    { env = wing.env(), carriers = 'carried' }: { env?: WingEnv; carriers?: 'carried' | 'lost' } = {},
  ) {
    const result = await recoverDeliveries(env, now);
    const next = () =>
      wing.queued
        .take()
        .filter((message) => carriers === 'carried' || !isCarried(message))
        .map(({ body }) => body);
    for (let messages = next(); messages.length > 0; messages = next())
      expect(await wing.handle(messages, { env })).toEqual([]);
    return result;
  }

  /** Forgets the carried retries queued so far (a queue that lost them); returns them. */
  const loseCarriers = () => {
    const carried = wing.queued.sent.filter(isCarried);
    wing.queued.sent.splice(0, wing.queued.sent.length, ...wing.queued.sent.filter((message) => !isCarried(message)));
    return carried;
  };

  return {
    fannedOut,
    recoverAt,
    loseCarriers,
    ledger: () =>
      wing.rows<LedgerRow>(
        'SELECT subscriber_id AS id, state, attempts, due_at, lease, last_error FROM deliveries ORDER BY subscriber_id',
      ),
    failingSince: () =>
      wing.rows<{ id: number; failing_since: string | null }>('SELECT id, failing_since FROM subscribers ORDER BY id'),
    subscriberIds: async () =>
      (await wing.rows<{ id: number }>('SELECT id FROM subscribers ORDER BY id')).map(({ id }) => id),
  };
}

export { DEAD_LETTER_QUEUE_NAME };
