import { hasEventFrame } from '../../core/journal/event-frame.ts';
import { EventSchema, type Event } from '../../core/schemas.ts';

/**
 * The confirmed-events journal in D1 (migrations/0003_confirm_journal.sql; decisions.md, "Confirmed within a
 * minute"): the events a reviewer confirmed on the review page, published at once by every output until a build
 * that holds them serves. A draft's id is its event's id, so one id names the draft, the journal row and the file.
 */

export type JournalState = 'live' | 'withdrawn' | 'retired';
/** The event file's way into git: waiting for (another) try, in the repository, or not to be made (withdrawn). */
export type GitState = 'pending' | 'committed' | 'cancelled';

export interface JournalEntry {
  event: Event;
  draftId: string;
  confirmedAt: string;
  state: JournalState;
  stateAt: string;
  retiredBuild: string | null;
  gitState: GitState;
  gitAttempts: number;
  gitNextAt: string;
  gitError: string | null;
  /** The commit's sha once the file is in git. */
  gitCommit: string | null;
}

interface JournalRow {
  id: string;
  draft_id: string;
  event: string;
  confirmed_at: string;
  state: JournalState;
  state_at: string;
  retired_build: string | null;
  git_state: GitState;
  git_attempts: number;
  git_next_at: string;
  git_error: string | null;
  git_commit: string | null;
}

const COLUMNS = `id, draft_id, event, confirmed_at, state, state_at, retired_build, git_state, git_attempts,
  git_next_at, git_error, git_commit`;

// The row's event was validated when it was confirmed (`insertConfirmed` parses it); a read looks at its frame only
// (src/core/journal/event-frame.ts), and a row without one is left out and logged, never shown.
function entryOf(row: JournalRow): JournalEntry | null {
  let event: unknown;
  try {
    event = JSON.parse(row.event);
  } catch {
    event = undefined;
  }
  if (!hasEventFrame(event, row.id)) {
    console.error(`journal row ${row.id} does not hold an event; it is left out of every output`);
    return null;
  }
  return {
    event,
    draftId: row.draft_id,
    confirmedAt: row.confirmed_at,
    state: row.state,
    stateAt: row.state_at,
    retiredBuild: row.retired_build,
    gitState: row.git_state,
    gitAttempts: row.git_attempts,
    gitNextAt: row.git_next_at,
    gitError: row.git_error,
    gitCommit: row.git_commit,
  };
}

const entriesOf = (rows: readonly JournalRow[]): JournalEntry[] => rows.map(entryOf).filter((entry) => entry !== null);

/**
 * The live journal, in the order it was confirmed: what every output adds to the build's events. One indexed read
 * (`journal_live`): an empty journal costs a round trip and no row.
 */
export async function readLiveJournal(db: D1Database): Promise<JournalEntry[]> {
  const { results } = await db
    .prepare(`SELECT ${COLUMNS} FROM journal WHERE state = 'live' ORDER BY confirmed_at, id`)
    .all<JournalRow>();
  return entriesOf(results);
}

/** The journal's version stamp (`journal_version`, new at every change by a trigger), or null without its row. */
export async function readJournalVersion(db: D1Database): Promise<string | null> {
  return db.prepare('SELECT version FROM journal_version WHERE id = 1').first<string>('version');
}

/** One entry whatever its state (the review page, the event's provenance), or null. */
export async function readJournalEntry(db: D1Database, id: string): Promise<JournalEntry | null> {
  const row = await db.prepare(`SELECT ${COLUMNS} FROM journal WHERE id = ?1`).bind(id).first<JournalRow>();
  return row === null ? null : entryOf(row);
}

/**
 * The statement that puts a confirmed event in the journal, run in the batch that records the decision: with
 * `onlyIfDecidedAt`, only when the draft's decision was recorded at that time (by the same batch).
 */
export const insertConfirmed = (
  db: D1Database,
  event: Event,
  draftId: string,
  now: Date,
  { onlyIfDecidedAt }: { onlyIfDecidedAt: string },
): D1PreparedStatement =>
  db
    .prepare(
      `INSERT INTO journal (id, draft_id, provider, event, confirmed_at, state, state_at, git_next_at)
       SELECT ?1, ?2, ?3, ?4, ?5, 'live', ?5, ?5
       WHERE EXISTS (SELECT 1 FROM watch_drafts WHERE id = ?2 AND decision = 'confirmed' AND decided_at = ?6)
       ON CONFLICT (id) DO NOTHING`,
    )
    .bind(
      event.id,
      draftId,
      event.provider,
      // Validated here, once: every read trusts the row after a look at its frame.
      JSON.stringify(EventSchema.parse(event)),
      now.toISOString(),
      onlyIfDecidedAt,
    );

/**
 * Takes a live event out of the journal before its file reached git: it leaves every output, its commit is not
 * made, and whatever of its deliveries has not left yet never will (decisions.md: "removes it everywhere and tells
 * subscribers nothing more"). False when it is not live, already in git, or while a try to commit it is in flight
 * (its file may be in git when the try ends: the reviewer is told to try again in a moment).
 */
export async function withdrawLive(db: D1Database, id: string, now: Date): Promise<boolean> {
  const at = now.toISOString();
  const [withdrawn] = await db.batch<{ id: string }>([
    db
      .prepare(
        `UPDATE journal SET state = 'withdrawn', state_at = ?2, git_state = 'cancelled'
         WHERE id = ?1 AND state = 'live' AND git_state = 'pending' AND (git_try_until IS NULL OR git_try_until <= ?2)
         RETURNING id`,
      )
      .bind(id, at),
    // Only when the update above took effect: its row is 'withdrawn' now, with this very time.
    db
      .prepare(
        `UPDATE notifications SET fanout_done = 1, lease = NULL, lease_until = NULL
         WHERE event_id = ?1 AND EXISTS (SELECT 1 FROM journal WHERE id = ?1 AND state = 'withdrawn' AND state_at = ?2)`,
      )
      .bind(id, at),
    db
      .prepare(
        `UPDATE deliveries SET state = 'failed', done_at = ?2, last_error = 'withdrawn by the reviewer', lease = NULL
         WHERE event_id = ?1 AND state = 'pending'
           AND EXISTS (SELECT 1 FROM journal WHERE id = ?1 AND state = 'withdrawn' AND state_at = ?2)`,
      )
      .bind(id, at),
  ]);
  return (withdrawn?.results.length ?? 0) > 0;
}

/**
 * Retires the live entries whose events the serving build holds (`heldIds`, the ones of the journal that the
 * build's records list): from then on the build's file is the event's only source.
 */
export async function retireHeld(db: D1Database, heldIds: readonly string[], buildId: string, now: Date) {
  if (heldIds.length === 0) return 0;
  const { results } = await db
    .prepare(
      `UPDATE journal SET state = 'retired', state_at = ?3, retired_build = ?2
       WHERE state = 'live' AND id IN (SELECT value FROM json_each(?1)) RETURNING id`,
    )
    .bind(JSON.stringify(heldIds), buildId, now.toISOString())
    .all<{ id: string }>();
  return results.length;
}
