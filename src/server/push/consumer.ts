import { encodePayload, pushPayload } from '../../core/push/payload.ts';
import { LOCALES, type Locale } from '../../core/vocabulary.ts';
import { BASE_URL } from '../base-url.ts';
import { consumeChatMessage } from '../webhooks/delivery.ts';
import { FAILING_LIMIT_MS, MAX_DELIVERY_ATTEMPTS, retryDelaySeconds } from './delivery-policy.ts';
import {
  DELIVER_CHUNK_SIZE,
  type DeliverMessage,
  type DispatchMessage,
  FANOUT_PAGE_SIZE,
  type FanoutMessage,
  type PushProducer,
  type PushQueueMessage,
  SEND_BATCH_MAX,
} from './messages.ts';
import { PUSH_TTL_SECONDS, type SendOutcome, sendPush } from './sender.ts';
import type { VapidKeys } from './vapid.ts';

/**
 * The queue consumer's half of push (docs/push.md, "Dispatch and delivery"): fan-out in pages, sending, the
 * delivery ledger, and what each push service answer does to its subscription.
 */

export interface ConsumerBindings {
  PUSH_DB: D1Database;
  PUSH_QUEUE: PushProducer;
}

export interface ConsumerSettings {
  vapid: VapidKeys;
  allowLoopbackReceiver: boolean;
  fetcher?: typeof fetch;
  /**
   * Runs what a `dispatch` message asks for: the dispatch the minute cron runs, at `now` (worker-handlers.ts hands
   * `dispatchDue` over the worker's bindings). A consumer without it retries such a message.
   */
  dispatch?: (message: DispatchMessage, now: Date) => Promise<unknown>;
}

const json = (values: readonly number[]) => JSON.stringify(values);

/** One page of the topic's subscribers, as `deliver` messages, and the next page's `fanout` when there may be one. */
export async function fanOut(env: ConsumerBindings, message: FanoutMessage): Promise<void> {
  const { results } = await env.PUSH_DB.prepare(
    `SELECT subscription_id FROM subscription_topics
     WHERE provider = ?1 AND kind = ?2 AND subscription_id > ?3 ORDER BY subscription_id LIMIT ?4`,
  )
    .bind(message.event.provider, message.event.kind, message.afterId, FANOUT_PAGE_SIZE)
    .all<{ subscription_id: number }>();
  const ids = results.map((row) => row.subscription_id);
  const next: PushQueueMessage[] = [];
  // The next page first, so that the chain of pages moves on while this page's pushes are being sent.
  const last = ids.at(-1);
  if (ids.length === FANOUT_PAGE_SIZE && last !== undefined) next.push({ ...message, afterId: last });
  for (let start = 0; start < ids.length; start += DELIVER_CHUNK_SIZE)
    next.push({
      type: 'deliver',
      event: message.event,
      transition: message.transition,
      subscriptionIds: ids.slice(start, start + DELIVER_CHUNK_SIZE),
      attempt: 1,
    });
  for (let start = 0; start < next.length; start += SEND_BATCH_MAX)
    await env.PUSH_QUEUE.sendBatch(
      next.slice(start, start + SEND_BATCH_MAX).map((body) => ({ body, contentType: 'json' as const })),
    );
}

interface ClaimedSubscription {
  id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  locale: Locale;
  expirationTime: number | null;
}

/**
 * Sends one event's notification to a handful of subscriptions. Each (subscription, event, transition) is first
 * claimed in the `deliveries` ledger, so a redelivered message, an overlapping consumer or a second fan-out never
 * sends it twice; a claim whose push answered 429/5xx is given back and retried later.
 */
export async function deliver(
  env: ConsumerBindings,
  message: DeliverMessage,
  settings: ConsumerSettings,
  now: Date,
): Promise<void> {
  const { event, transition } = message;
  const db = env.PUSH_DB;
  const claimedIds = (
    await db
      .prepare(
        `INSERT INTO deliveries (subscription_id, event_id, transition, sent_at)
         SELECT id, ?2, ?3, ?4 FROM subscriptions WHERE id IN (SELECT value FROM json_each(?1)) ORDER BY id
         ON CONFLICT DO NOTHING RETURNING subscription_id`,
      )
      .bind(json(message.subscriptionIds), event.id, transition, now.toISOString())
      .all<{ subscription_id: number }>()
  ).results.map((row) => row.subscription_id);
  if (claimedIds.length === 0) return;
  const { results: targets } = await db
    .prepare(
      `SELECT id, endpoint, p256dh, auth, locale, expiration_time AS expirationTime FROM subscriptions
       WHERE id IN (SELECT value FROM json_each(?1))`,
    )
    .bind(json(claimedIds))
    .all<ClaimedSubscription>();
  // The payload depends on the language only: built once per language, not once per subscriber.
  const payloads = Object.fromEntries(
    LOCALES.map((locale) => [locale, encodePayload(pushPayload(event, transition, locale, BASE_URL))]),
  ) as Record<Locale, string>;
  const options = {
    ttl: PUSH_TTL_SECONDS,
    urgency: event.kind === 'reset' ? ('high' as const) : ('normal' as const),
    allowLoopbackReceiver: settings.allowLoopbackReceiver,
  };
  const outcomes = await Promise.all(
    targets.map(async (target) => ({
      id: target.id,
      outcome: await sendPush(target, payloads[target.locale], settings.vapid, options, now, settings.fetcher),
    })),
  );
  await recordOutcomes(env, message, outcomes, now);
}

async function recordOutcomes(
  env: ConsumerBindings,
  message: DeliverMessage,
  outcomes: readonly { id: number; outcome: SendOutcome }[],
  now: Date,
): Promise<void> {
  const db = env.PUSH_DB;
  const idsOf = (kind: SendOutcome['kind']) =>
    outcomes.filter(({ outcome }) => outcome.kind === kind).map(({ id }) => id);
  const sent = idsOf('sent');
  const gone = idsOf('gone');
  const retry = idsOf('retry');
  const failing = [...retry, ...idsOf('failed')];
  const cutoff = new Date(now.getTime() - FAILING_LIMIT_MS).toISOString();
  const statements: D1PreparedStatement[] = [];
  if (sent.length > 0)
    statements.push(
      db
        .prepare(
          'UPDATE subscriptions SET failing_since = NULL WHERE id IN (SELECT value FROM json_each(?1)) AND failing_since IS NOT NULL',
        )
        .bind(json(sent)),
    );
  // 404/410, or past its expirationTime: the subscription is gone; its topics and ledger rows go with it (cascade).
  if (gone.length > 0)
    statements.push(
      db.prepare('DELETE FROM subscriptions WHERE id IN (SELECT value FROM json_each(?1))').bind(json(gone)),
    );
  if (retry.length > 0)
    statements.push(
      db
        .prepare(
          'DELETE FROM deliveries WHERE event_id = ?2 AND transition = ?3 AND subscription_id IN (SELECT value FROM json_each(?1))',
        )
        .bind(json(retry), message.event.id, message.transition),
    );
  if (failing.length > 0)
    statements.push(
      db
        .prepare(
          'UPDATE subscriptions SET failing_since = ?2 WHERE id IN (SELECT value FROM json_each(?1)) AND failing_since IS NULL',
        )
        .bind(json(failing), now.toISOString()),
      // Failing for 7 days: dropped.
      db
        .prepare('DELETE FROM subscriptions WHERE id IN (SELECT value FROM json_each(?1)) AND failing_since <= ?2')
        .bind(json(failing), cutoff),
    );
  if (statements.length > 0) await db.batch(statements);
  if (retry.length === 0 || message.attempt >= MAX_DELIVERY_ATTEMPTS) return;
  const stillThere = (
    await db
      .prepare('SELECT id FROM subscriptions WHERE id IN (SELECT value FROM json_each(?1)) ORDER BY id')
      .bind(json(retry))
      .all<{ id: number }>()
  ).results.map((row) => row.id);
  if (stillThere.length === 0) return;
  // What the push services asked for in Retry-After, if any did: the longest wait.
  const asked = outcomes.flatMap(({ outcome }) =>
    outcome.kind === 'retry' && outcome.retryAfterSeconds !== undefined ? [outcome.retryAfterSeconds] : [],
  );
  const attempt = message.attempt + 1;
  await env.PUSH_QUEUE.send(
    { ...message, subscriptionIds: stillThere, attempt },
    {
      contentType: 'json',
      delaySeconds: retryDelaySeconds(attempt, asked.length > 0 ? Math.max(0, ...asked) : undefined),
    },
  );
}

/**
 * A batch from the queue: each message on its own, so one that fails (D1 unavailable) is retried by the queue
 * without holding up the others. Sending itself never throws (sender.ts).
 */
export async function consumePushBatch(
  batch: MessageBatch<PushQueueMessage>,
  env: ConsumerBindings,
  settings: ConsumerSettings,
  now: () => Date = () => new Date(),
): Promise<void> {
  await Promise.all(
    batch.messages.map(async (message) => {
      try {
        const { body } = message;
        if (body.type === 'dispatch') {
          if (settings.dispatch === undefined) throw new Error('this consumer cannot run a dispatch');
          await settings.dispatch(body, now());
        } else if (body.type === 'fanout') await fanOut(env, body);
        else if (body.type === 'deliver') await deliver(env, body, settings, now());
        else await consumeChatMessage(env, body, settings, now());
        message.ack();
      } catch (error) {
        console.error('push queue message failed', error);
        message.retry();
      }
    }),
  );
}
