import type { Transition } from '../../core/push/due.ts';
import type { DeliveryOutcome } from './channel.ts';
import { FAILING_LIMIT_MS, LAST_TRY_BEFORE_END_MS, retryDelaySeconds } from './policy.ts';
import { IN_IDS, jsonIds } from './sql.ts';
import { removeSubscribersStatement } from './subscribers.ts';

/**
 * What a batch of sends does to the ledger and the subscribers, one rule for every channel (docs/delivery.md,
 * "Retries, expiry, drops"): a sent delivery is done and clears its subscriber's failures; a gone subscriber is
 * removed (its rows with it); a refused one is `failed`; one to try again gets its due time (the receiver's
 * `Retry-After`, else the backoff) and is `expired` when that falls past its window. A failure (not a pacing `wait`)
 * starts or continues its subscriber's `failing_since`, and 7 days of it drops the subscriber.
 */

export interface SendResult {
  id: number;
  /** Tries of this delivery so far, this one included. */
  attempts: number;
  outcome: DeliveryOutcome;
}

const REASON_MAX_LENGTH = 200;
/** The moment of a delivery's last try (its window's end less `LAST_TRY_BEFORE_END_MS`, bound as ?6), in SQL. */
const LAST_TRY = "strftime('%Y-%m-%dT%H:%M:%fZ', deliveries.expires_at, ?6)";

/** Returns the retries it recorded: each subscriber to try again and when. */
export async function recordOutcomes(
  db: D1Database,
  held: { eventId: string; transition: Transition; lease: string },
  results: readonly SendResult[],
  now: Date,
): Promise<{ id: number; due: Date }[]> {
  const rows = results
    .filter(({ outcome }) => outcome.kind !== 'gone')
    .map(({ id, attempts, outcome }) => {
      const again = outcome.kind === 'retry' || outcome.kind === 'wait';
      const due = again
        ? new Date(now.getTime() + retryDelaySeconds(attempts, outcome.retryAfterSeconds) * 1000).toISOString()
        : null;
      const state = outcome.kind === 'sent' ? 'sent' : outcome.kind === 'failed' ? 'failed' : 'pending';
      const reason = outcome.kind === 'sent' ? null : (outcome.reason ?? outcome.kind).slice(0, REASON_MAX_LENGTH);
      return { id, state, due, reason };
    });
  const idsOf = (...kinds: DeliveryOutcome['kind'][]) =>
    results.filter(({ outcome }) => kinds.includes(outcome.kind)).map(({ id }) => id);
  const gone = idsOf('gone');
  const failing = idsOf('retry', 'failed');
  const sent = idsOf('sent');
  const nowText = now.toISOString();
  const statements: D1PreparedStatement[] = [];
  if (rows.length > 0)
    statements.push(
      db
        .prepare(
          // A retry due past the window is made once more in its last minute (LAST_TRY), unless that has come: the
          // tries go on until the 24 hours end, so a receiver back before then is sent to.
          `UPDATE deliveries SET
             state = CASE WHEN r.state = 'pending' AND r.due >= deliveries.expires_at AND ?4 >= ${LAST_TRY}
                          THEN 'expired' ELSE r.state END,
             due_at = CASE WHEN r.due IS NULL THEN due_at WHEN r.due < deliveries.expires_at THEN r.due
                           ELSE max(?4, ${LAST_TRY}) END,
             done_at = CASE WHEN r.state = 'pending' AND (r.due < deliveries.expires_at OR ?4 < ${LAST_TRY})
                            THEN NULL ELSE ?4 END,
             last_error = r.reason, lease = NULL, lease_until = NULL
           FROM (SELECT json_extract(value, '$.id') AS id, json_extract(value, '$.state') AS state,
                        json_extract(value, '$.due') AS due, json_extract(value, '$.reason') AS reason
                 FROM json_each(?1)) AS r
           WHERE deliveries.subscriber_id = r.id AND event_id = ?2 AND transition = ?3 AND lease = ?5`,
        )
        .bind(
          JSON.stringify(rows),
          held.eventId,
          held.transition,
          nowText,
          held.lease,
          `-${LAST_TRY_BEFORE_END_MS / 1000} seconds`,
        ),
    );
  if (sent.length > 0)
    statements.push(
      db
        .prepare(`UPDATE subscribers SET failing_since = NULL WHERE id ${IN_IDS} AND failing_since IS NOT NULL`)
        .bind(jsonIds(sent)),
    );
  if (gone.length > 0) statements.push(removeSubscribersStatement(db, gone));
  if (failing.length > 0)
    statements.push(
      db
        .prepare(`UPDATE subscribers SET failing_since = ?2 WHERE id ${IN_IDS} AND failing_since IS NULL`)
        .bind(jsonIds(failing), nowText),
      db
        .prepare(`DELETE FROM subscribers WHERE id ${IN_IDS} AND failing_since <= ?2`)
        .bind(jsonIds(failing), new Date(now.getTime() - FAILING_LIMIT_MS).toISOString()),
    );
  if (statements.length > 0) await db.batch(statements);
  return rows.flatMap(({ id, due }) => (due === null ? [] : [{ id, due: new Date(due) }]));
}
