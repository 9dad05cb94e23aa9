import { CHANNEL_TABLES, type Channel, type ClaimKey, claimValues, IN_IDS, jsonIds } from './channels.ts';
import { claimMatch } from './ledger.ts';
import { FAILING_LIMIT_MS, MAX_DELIVERY_ATTEMPTS, retryDelaySeconds } from './policy.ts';

/**
 * What a batch of sends does to a channel's subscribers and ledger, the same rule for every channel on the
 * delivery path (docs/push.md): each channel's sender answers in these kinds (push's sender.ts, chat's
 * post-message.ts, WebSub's callback.ts), with details of its own beside them.
 */
export type DeliveryOutcome =
  | { kind: 'sent' }
  /** 404/410, an expired subscription, a URL no longer allowed: the subscriber is deleted (its rows cascade). */
  | { kind: 'gone' }
  /** 429/5xx or no answer: the claim is given back to be tried again, and it is a failure toward the drop. */
  | { kind: 'retry'; retryAfterSeconds: number | undefined }
  /** The receiver pacing one that works (chat's 429): tried again as asked, and no failure. */
  | { kind: 'wait'; retryAfterSeconds: number | undefined }
  /** Refused for good (another 4xx): not tried again, a failure toward the drop. */
  | { kind: 'failed' };

/** The next try of a batch: the subscribers still there of those to try again, its number and its wait. */
export interface NextTry {
  ids: number[];
  attempt: number;
  delaySeconds: number;
}

/**
 * Records one batch's outcomes in one D1 batch: a success clears `failing_since`; a gone subscriber is deleted;
 * a claim to try again is given back; a failure starts (or continues) `failing_since`, and a subscriber failing
 * for `FAILING_LIMIT_MS` (7 days) is deleted. Returns the next try, when there is one to make: while tries are
 * left (`MAX_DELIVERY_ATTEMPTS`), to those still subscribed, after the longest wait any receiver asked for (else
 * the backoff: `retryDelaySeconds`). The caller enqueues it on its own channel's queue.
 */
export async function recordOutcomes<C extends Channel>(
  db: D1Database,
  channel: C,
  key: ClaimKey<C>,
  attempt: number,
  outcomes: readonly { id: number; outcome: DeliveryOutcome }[],
  now: Date,
): Promise<NextTry | undefined> {
  const { subscribers, ledger, subscriber } = CHANNEL_TABLES[channel];
  const idsOf = (...kinds: DeliveryOutcome['kind'][]) =>
    outcomes.filter(({ outcome }) => kinds.includes(outcome.kind)).map(({ id }) => id);
  const sent = idsOf('sent');
  const gone = idsOf('gone');
  const again = idsOf('retry', 'wait');
  const failing = idsOf('retry', 'failed');
  const statements: D1PreparedStatement[] = [];
  if (sent.length > 0)
    statements.push(
      db
        .prepare(`UPDATE ${subscribers} SET failing_since = NULL WHERE id ${IN_IDS} AND failing_since IS NOT NULL`)
        .bind(jsonIds(sent)),
    );
  if (gone.length > 0) statements.push(db.prepare(`DELETE FROM ${subscribers} WHERE id ${IN_IDS}`).bind(jsonIds(gone)));
  if (again.length > 0)
    statements.push(
      db
        .prepare(`DELETE FROM ${ledger} WHERE ${claimMatch(channel)} AND ${subscriber} ${IN_IDS}`)
        .bind(jsonIds(again), ...claimValues(key)),
    );
  if (failing.length > 0)
    statements.push(
      db
        .prepare(`UPDATE ${subscribers} SET failing_since = ?2 WHERE id ${IN_IDS} AND failing_since IS NULL`)
        .bind(jsonIds(failing), now.toISOString()),
      db
        .prepare(`DELETE FROM ${subscribers} WHERE id ${IN_IDS} AND failing_since <= ?2`)
        .bind(jsonIds(failing), new Date(now.getTime() - FAILING_LIMIT_MS).toISOString()),
    );
  if (statements.length > 0) await db.batch(statements);
  if (again.length === 0 || attempt >= MAX_DELIVERY_ATTEMPTS) return undefined;
  const { results } = await db
    .prepare(`SELECT id FROM ${subscribers} WHERE id ${IN_IDS} ORDER BY id`)
    .bind(jsonIds(again))
    .all<{ id: number }>();
  if (results.length === 0) return undefined;
  const asked = outcomes.flatMap(({ outcome }) =>
    (outcome.kind === 'retry' || outcome.kind === 'wait') && outcome.retryAfterSeconds !== undefined
      ? [outcome.retryAfterSeconds]
      : [],
  );
  const next = attempt + 1;
  return {
    ids: results.map((row) => row.id),
    attempt: next,
    delaySeconds: retryDelaySeconds(next, asked.length > 0 ? Math.max(0, ...asked) : undefined),
  };
}
