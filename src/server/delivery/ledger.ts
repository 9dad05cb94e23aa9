import { MS_PER_DAY } from '../../core/ordering.ts';
import { CHANNEL_TABLES, type Channel, type ClaimKey, claimValues, IN_IDS, jsonIds } from './channels.ts';
import { LEDGER_KEPT_DAYS, LEDGER_PRUNE_SLICE } from './policy.ts';

/**
 * A channel's delivery ledger (docs/push.md, "Dispatch and delivery"): a subscriber is claimed for a thing to send
 * before it is sent, so a redelivered message, an overlapping consumer or a second fan-out never sends it twice.
 */

/** The claim's `col = ?2 AND col = ?3 …` (?1 is the ids' list). */
export const claimMatch = (channel: Channel) =>
  CHANNEL_TABLES[channel].claim.map((column, index) => `${column} = ?${index + 2}`).join(' AND ');

/** Claims `key` for each of `ids` still a subscriber; returns the ids claimed here (the others were claimed before). */
export async function claimDeliveries<C extends Channel>(
  db: D1Database,
  channel: C,
  ids: readonly number[],
  key: ClaimKey<C>,
  now: Date,
): Promise<number[]> {
  const { subscribers, ledger, subscriber, claim } = CHANNEL_TABLES[channel];
  const keyParameters = claim.map((_, index) => `?${index + 2}`).join(', ');
  const { results } = await db
    .prepare(
      `INSERT INTO ${ledger} (${subscriber}, ${claim.join(', ')}, sent_at)
       SELECT id, ${keyParameters}, ?${claim.length + 2} FROM ${subscribers} WHERE id ${IN_IDS} ORDER BY id
       ON CONFLICT DO NOTHING RETURNING ${subscriber} AS id`,
    )
    .bind(jsonIds(ids), ...claimValues(key), now.toISOString())
    .all<{ id: number }>();
  return results.map((row) => row.id);
}

/**
 * Deletes the oldest ledger rows past `LEDGER_KEPT_DAYS`, at most `slice` of them: a bounded statement every
 * minute rather than a rare huge one. A statement, so that a channel can run it in a batch of its own.
 */
export function pruneLedgerStatement(
  db: D1Database,
  channel: Channel,
  now: Date,
  slice = LEDGER_PRUNE_SLICE,
): D1PreparedStatement {
  const { ledger, subscriber, claim } = CHANNEL_TABLES[channel];
  const row = [subscriber, ...claim].join(', ');
  const cutoff = new Date(now.getTime() - LEDGER_KEPT_DAYS * MS_PER_DAY).toISOString();
  return db
    .prepare(
      `DELETE FROM ${ledger} WHERE (${row}) IN (
         SELECT ${row} FROM ${ledger} WHERE sent_at < ?1 ORDER BY sent_at LIMIT ?2)`,
    )
    .bind(cutoff, slice);
}

/** `pruneLedgerStatement` run on its own; returns how many rows it deleted. */
export async function pruneLedger(db: D1Database, channel: Channel, now: Date, slice?: number): Promise<number> {
  return (await pruneLedgerStatement(db, channel, now, slice).run()).meta.changes;
}
