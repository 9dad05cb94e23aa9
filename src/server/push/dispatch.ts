import { type DueNotification, dueNotifications } from '../../core/push/due.ts';
import { PROVIDERS } from '../../core/vocabulary.ts';
import { BASE_URL } from '../base-url.ts';
import { readEdgeDatasetNow } from '../data-source.ts';
import { SEND_BATCH_MAX } from '../delivery/fan-out.ts';
import { pruneLedger } from '../delivery/ledger.ts';
import { chatFanoutOf } from '../webhooks/delivery.ts';
import type { FanoutMessage, PushProducer, PushQueueMessage } from './messages.ts';
import type { WebSubProducer } from '../websub/messages.ts';

/**
 * The cron's half of push (docs/push.md, "Dispatch and delivery"): find the (event, transition) pairs due now
 * in the published events, claim the new ones in `notifications`, and enqueue one fan-out for each.
 */

export interface DispatchBindings {
  ASSETS: Pick<Fetcher, 'fetch'>;
  PUSH_DB: D1Database;
  PUSH_QUEUE: Pick<PushProducer, 'sendBatch'>;
  /** WebSub's queue (docs/push.md, "Dispatch and delivery"): the same run's changes go to the feeds' subscribers. */
  WEBSUB_QUEUE?: Pick<WebSubProducer, 'send'>;
}

export interface DispatchResult {
  due: number;
  /** Pairs this run claimed and fanned out. */
  enqueued: number;
  /** Pairs this run claimed as history (the first dispatch): marked as sent without sending. */
  suppressed: number;
}

const FIRST_DISPATCH = 'first_dispatch';

/**
 * What a claimed (event, transition) enqueues: a fan-out for each channel on the delivery path, push's
 * subscriptions and the chat webhooks (src/server/webhooks). One claim serves them all.
 */
const CHANNEL_FANOUTS: readonly ((fanout: FanoutMessage) => PushQueueMessage)[] = [(fanout) => fanout, chatFanoutOf];

/**
 * Claims the due pairs not claimed before, in one transaction (a D1 batch): the first run ever also writes the
 * `first_dispatch` mark with its own token, and its claims are then `suppressed`. Two overlapping runs claim
 * each pair once (the primary key); only the run whose insert went through fans it out.
 */
async function claim(db: D1Database, due: readonly DueNotification[], now: Date) {
  const token = crypto.randomUUID();
  const pairs = due.map(({ event, transition }) => ({ e: event.id, t: transition, p: event.provider, k: event.kind }));
  const [, claimed] = await db.batch<{ event_id: string; transition: string; suppressed: number }>([
    db
      .prepare('INSERT INTO dispatch_state (name, value) VALUES (?1, ?2) ON CONFLICT (name) DO NOTHING')
      .bind(FIRST_DISPATCH, token),
    db
      .prepare(
        `INSERT INTO notifications (event_id, transition, provider, kind, found_at, suppressed)
         SELECT json_extract(value, '$.e'), json_extract(value, '$.t'), json_extract(value, '$.p'),
                json_extract(value, '$.k'), ?2,
                EXISTS (SELECT 1 FROM dispatch_state WHERE name = ?3 AND value = ?4)
         FROM json_each(?1) WHERE true
         ON CONFLICT (event_id, transition) DO NOTHING
         RETURNING event_id, transition, suppressed`,
      )
      .bind(JSON.stringify(pairs), now.toISOString(), FIRST_DISPATCH, token),
  ]);
  return claimed?.results ?? [];
}

export async function dispatchDue(env: DispatchBindings, now: Date): Promise<DispatchResult> {
  const dataset = await readEdgeDatasetNow(env.ASSETS, BASE_URL);
  const due = dueNotifications(
    PROVIDERS.flatMap((provider) => dataset.providers[provider].recent),
    now,
  );
  // Also with nothing due: the first run writes its mark, so an empty history never makes a later event "history".
  const claimed = await claim(env.PUSH_DB, due, now);
  const byKey = new Map(due.map((pair) => [`${pair.event.id}/${pair.transition}`, pair]));
  const fanouts: FanoutMessage[] = [];
  for (const row of claimed) {
    const pair = byKey.get(`${row.event_id}/${row.transition}`);
    if (pair !== undefined && row.suppressed === 0)
      fanouts.push({ type: 'fanout', event: pair.event, transition: pair.transition, afterId: 0 });
  }
  // A pair's messages (one per channel) go in one batch: a refused batch gives back claims none of whose messages left.
  const perBatch = Math.floor(SEND_BATCH_MAX / CHANNEL_FANOUTS.length);
  for (let start = 0; start < fanouts.length; start += perBatch) {
    const chunk = fanouts.slice(start, start + perBatch);
    const messages = chunk.flatMap((fanout) => CHANNEL_FANOUTS.map((channelFanout) => channelFanout(fanout)));
    try {
      await env.PUSH_QUEUE.sendBatch(messages.map((body) => ({ body, contentType: 'json' as const })));
    } catch (error) {
      // Not enqueued: give the claims back, so that the next minute's run claims and enqueues them again.
      await releaseClaims(env.PUSH_DB, chunk);
      throw error;
    }
  }
  if (env.WEBSUB_QUEUE !== undefined) await handToWebSub(env.WEBSUB_QUEUE, env.PUSH_DB, fanouts, now);
  await pruneLedger(env.PUSH_DB, 'push', now);
  await pruneLedger(env.PUSH_DB, 'chat', now);
  return { due: due.length, enqueued: fanouts.length, suppressed: claimed.length - fanouts.length };
}

/**
 * WebSub (docs/push.md, "Dispatch and delivery"): the run's changes go to the feeds' subscribers as well, and the
 * minute prunes its rows. Its module is loaded here, not with the worker. If the change cannot be handed over, the
 * run's claims are given back: the next minute claims them again, and each channel's ledger keeps it from sending
 * twice.
 */
async function handToWebSub(
  queue: Pick<WebSubProducer, 'send'>,
  db: D1Database,
  fanouts: readonly FanoutMessage[],
  now: Date,
): Promise<void> {
  const { announceWebSubChange, pruneWebSub } = await import('../websub/hub.ts');
  try {
    await announceWebSubChange(queue, BASE_URL, fanouts);
  } catch (error) {
    await releaseClaims(db, fanouts);
    throw error;
  }
  await pruneWebSub(db, now);
}

async function releaseClaims(db: D1Database, fanouts: readonly FanoutMessage[]): Promise<void> {
  await db.batch(
    fanouts.map(({ event, transition }) =>
      db.prepare('DELETE FROM notifications WHERE event_id = ?1 AND transition = ?2').bind(event.id, transition),
    ),
  );
}
