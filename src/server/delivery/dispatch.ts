import { type DueNotification, dueNotifications } from '../../core/push/due.ts';
import { RECENT_EVENTS_PER_PROVIDER } from '../../core/dataset.ts';
import { datasetWithJournal } from '../../core/journal/merge.ts';
import { PROVIDERS } from '../../core/vocabulary.ts';
import { BASE_URL } from '../base-url.ts';
import { readEdgeDatasetNow } from '../data-source.ts';
import { retireWhatTheBuildHolds } from '../journal/retire.ts';
import { readLiveJournal } from '../journal/store.ts';
import { type DeliveryProducer, type FanoutMessage, sendAll } from './messages.ts';
import { QUEUED_LEASE_MS } from './policy.ts';

/**
 * The dispatch (docs/delivery.md, "The pipeline"): the (event, transition) pairs due now in the published events,
 * each claimed once in `notifications` with its event, and one fan-out queued for each. Run by the minute cron and
 * by a new build's `dispatch` message. A fan-out the queue did not take is not lost: its claim holds it only until
 * its lease ends, and then the cron queues it again (recover.ts).
 */

export interface DispatchBindings {
  ASSETS: Pick<Fetcher, 'fetch'>;
  DB: D1Database;
  DELIVERY_QUEUE: Pick<DeliveryProducer, 'sendBatch'>;
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
 * Claims the due pairs not claimed before, in one transaction (a D1 batch): the first run ever also writes the
 * `first_dispatch` mark with its own token, and its claims are then `suppressed` (history, never fanned out). Two
 * overlapping runs claim each pair once (the primary key); only the run whose insert went through fans it out.
 */
async function claim(db: D1Database, due: readonly DueNotification[], lease: string, now: Date) {
  const token = crypto.randomUUID();
  const pairs = due.map(({ event, transition }) => ({
    e: event.id,
    t: transition,
    p: event.provider,
    k: event.kind,
    j: JSON.stringify(event),
  }));
  const [, claimed] = await db.batch<{ event_id: string; transition: string; suppressed: number }>([
    db
      .prepare('INSERT INTO dispatch_state (name, value) VALUES (?1, ?2) ON CONFLICT (name) DO NOTHING')
      .bind(FIRST_DISPATCH, token),
    db
      .prepare(
        `INSERT INTO notifications (event_id, transition, provider, kind, found_at, suppressed, event, fanout_done,
                                    lease, lease_until)
         SELECT json_extract(value, '$.e'), json_extract(value, '$.t'), json_extract(value, '$.p'),
                json_extract(value, '$.k'), ?2, first.is_first, json_extract(value, '$.j'), first.is_first, ?5, ?6
         FROM json_each(?1), (SELECT EXISTS (SELECT 1 FROM dispatch_state WHERE name = ?3 AND value = ?4) AS is_first)
           AS first
         -- An event the reviewer withdrew after this run read the journal is not claimed (decisions.md: a withdrawal
         -- tells subscribers nothing more).
         WHERE NOT EXISTS (SELECT 1 FROM journal WHERE id = json_extract(value, '$.e') AND state = 'withdrawn')
         ON CONFLICT (event_id, transition) DO NOTHING
         RETURNING event_id, transition, suppressed`,
      )
      .bind(
        JSON.stringify(pairs),
        now.toISOString(),
        FIRST_DISPATCH,
        token,
        lease,
        new Date(now.getTime() + QUEUED_LEASE_MS).toISOString(),
      ),
  ]);
  return claimed?.results ?? [];
}

export async function dispatchDue(env: DispatchBindings, now: Date): Promise<DispatchResult> {
  // The build's events with the journal's confirmed ones (decisions.md, "Confirmed within a minute"); the journal's
  // entries this build already holds retire here, once a minute and at a new build's first dispatch.
  const built = await readEdgeDatasetNow(env.ASSETS, BASE_URL);
  const journal = await readLiveJournal(env.DB);
  const live = await retireWhatTheBuildHolds(env, built, journal, now);
  const dataset = datasetWithJournal(built, live, RECENT_EVENTS_PER_PROVIDER);
  const due = dueNotifications(
    PROVIDERS.flatMap((provider) => dataset.providers[provider].recent),
    now,
  );
  const lease = crypto.randomUUID();
  // Also with nothing due: the first run writes its mark, so an empty history never makes a later event "history".
  const claimed = await claim(env.DB, due, lease, now);
  const byKey = new Map(due.map((pair) => [`${pair.event.id}/${pair.transition}`, pair]));
  const fanouts: FanoutMessage[] = [];
  for (const row of claimed) {
    const pair = byKey.get(`${row.event_id}/${row.transition}`);
    if (pair !== undefined && row.suppressed === 0)
      fanouts.push({ type: 'fanout', event: pair.event, transition: pair.transition, lease, at: now.toISOString() });
  }
  await sendAll(env.DELIVERY_QUEUE, fanouts);
  return { due: due.length, enqueued: fanouts.length, suppressed: claimed.length - fanouts.length };
}
