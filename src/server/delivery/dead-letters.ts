import type { DeliveryMessage } from './messages.ts';

/**
 * The dead-letter queue read back (docs/delivery.md, "The promise"): a message that exhausted its retries (D1 down
 * through all of them) arrives here. Its hold on its ledger rows or its fan-out is given up at once, so that the
 * next minute's cron queues the work again instead of waiting for the hold to end; and it is counted, so that the
 * service can say how many it had (`dispatch_state` `dead-letters`). A dead letter that cannot be read back now is
 * tried again by its own queue; if that fails too, the hold simply ends with its lease.
 */
export async function readBackDeadLetter(db: D1Database, message: DeliveryMessage, now: Date): Promise<void> {
  // Said before the database is asked: a dead letter is news even while the database that made it one is down.
  console.warn(
    `a ${message.type} message reached the dead-letter queue at ${now.toISOString()}; the cron queues its work again`,
  );
  const count = db.prepare(
    `INSERT INTO dispatch_state (name, value) VALUES ('dead-letters', '1')
       ON CONFLICT (name) DO UPDATE SET value = CAST(value AS INTEGER) + 1`,
  );
  const statements = [count];
  if (message.type === 'deliver')
    statements.push(
      db
        .prepare(
          `UPDATE deliveries SET lease = NULL, lease_until = NULL
           WHERE event_id = ?1 AND transition = ?2 AND lease = ?3 AND state = 'pending'`,
        )
        .bind(message.event.id, message.transition, message.lease),
    );
  else if (message.type === 'fanout')
    statements.push(
      db
        .prepare(
          `UPDATE notifications SET lease = NULL, lease_until = NULL
           WHERE event_id = ?1 AND transition = ?2 AND lease = ?3 AND fanout_done = 0`,
        )
        .bind(message.event.id, message.transition, message.lease),
    );
  await db.batch(statements);
}
