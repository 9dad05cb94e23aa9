import { SOURCE_REPORT_KEY, type SourceCheck, type SourceReport, storedSourceReport } from '../../core/sources.ts';
import type { PollState } from '../../core/watch/poll-state.ts';
import type { DraftProposal } from '../../core/watch/run.ts';

/**
 * The watcher's D1 tables (migrations/0001_state.sql): each feed's poll state, the pending drafts and the last
 * source report. A run reads the states once and writes everything it learnt in one batch (one transaction), so
 * that a run cut short leaves the last run's state whole and the next minute's run finds the same posts new.
 */

interface SourceRow {
  feed: string;
  etag: string | null;
  last_modified: string | null;
  polled_at: string | null;
  failures: number;
  retry_at: string | null;
  last_check: string | null;
  items: number;
  seen: string;
}

/** Every stored feed's poll state, by feed URL. */
export async function readPollStates(db: D1Database): Promise<Map<string, PollState>> {
  const { results } = await db.prepare('SELECT * FROM watch_sources').all<SourceRow>();
  return new Map(
    results.map((row) => [
      row.feed,
      {
        etag: row.etag,
        lastModified: row.last_modified,
        polledAt: row.polled_at,
        failures: row.failures,
        retryAt: row.retry_at,
        lastCheck: row.last_check === null ? null : (JSON.parse(row.last_check) as SourceCheck),
        items: row.items,
        seen: JSON.parse(row.seen) as string[],
      },
    ]),
  );
}

/** The ids and posts among `proposals` that a stored draft already has. */
export async function storedDraftKeys(
  db: D1Database,
  proposals: readonly DraftProposal[],
): Promise<{ ids: Set<string>; sourceUrls: Set<string> }> {
  if (proposals.length === 0) return { ids: new Set(), sourceUrls: new Set() };
  const { results } = await db
    .prepare(
      `SELECT id, source_url FROM watch_drafts
       WHERE id IN (SELECT value FROM json_each(?1)) OR source_url IN (SELECT value FROM json_each(?2))`,
    )
    .bind(
      JSON.stringify(proposals.map((proposal) => proposal.event.id)),
      JSON.stringify(proposals.map((proposal) => proposal.event.sourceUrl)),
    )
    .all<{ id: string; source_url: string }>();
  return { ids: new Set(results.map((row) => row.id)), sourceUrls: new Set(results.map((row) => row.source_url)) };
}

export interface RunRecord {
  /** The state of every feed asked in this run (the others keep theirs). */
  states: readonly { feed: string; state: PollState }[];
  /** Every configured feed: the rows of feeds no longer configured are deleted. */
  feeds: readonly string[];
  drafts: readonly DraftProposal[];
  report: SourceReport;
  now: Date;
}

/** Writes a run in one batch; resolves with the ids of the drafts this run inserted (an overlapping run's are not). */
export async function recordRun(db: D1Database, run: RunRecord): Promise<string[]> {
  const states = run.states.map(({ feed, state }) => ({
    feed,
    etag: state.etag,
    lastModified: state.lastModified,
    polledAt: state.polledAt,
    failures: state.failures,
    retryAt: state.retryAt,
    lastCheck: state.lastCheck === null ? null : JSON.stringify(state.lastCheck),
    items: state.items,
    seen: JSON.stringify(state.seen),
  }));
  const drafts = run.drafts.map(({ event, file }) => ({
    id: event.id,
    provider: event.provider,
    sourceUrl: event.sourceUrl,
    file,
  }));
  const at = run.now.toISOString();
  const [, , inserted] = await db.batch<{ id: string }>([
    db
      .prepare(
        `INSERT INTO watch_sources (feed, etag, last_modified, polled_at, failures, retry_at, last_check, items, seen)
         SELECT json_extract(value, '$.feed'), json_extract(value, '$.etag'), json_extract(value, '$.lastModified'), json_extract(value, '$.polledAt'),
                json_extract(value, '$.failures'), json_extract(value, '$.retryAt'), json_extract(value, '$.lastCheck'), json_extract(value, '$.items'),
                json_extract(value, '$.seen')
         FROM json_each(?1) WHERE true
         ON CONFLICT (feed) DO UPDATE SET etag = excluded.etag, last_modified = excluded.last_modified,
           polled_at = excluded.polled_at, failures = excluded.failures, retry_at = excluded.retry_at,
           last_check = excluded.last_check, items = excluded.items, seen = excluded.seen`,
      )
      .bind(JSON.stringify(states)),
    db
      .prepare('DELETE FROM watch_sources WHERE feed NOT IN (SELECT value FROM json_each(?1))')
      .bind(JSON.stringify(run.feeds)),
    db
      .prepare(
        `INSERT INTO watch_drafts (id, provider, source_url, file, found_at, review_next_at)
         SELECT json_extract(value, '$.id'), json_extract(value, '$.provider'), json_extract(value, '$.sourceUrl'), json_extract(value, '$.file'), ?2, ?2
         FROM json_each(?1) WHERE true
         ON CONFLICT DO NOTHING
         RETURNING id`,
      )
      .bind(JSON.stringify(drafts), at),
    db
      .prepare(
        'INSERT INTO watch_state (name, value) VALUES (?1, ?2) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
      )
      .bind(SOURCE_REPORT_KEY, storedSourceReport(run.report)),
  ]);
  return (inserted?.results ?? []).map((row) => row.id);
}

/** The worker's last source report as stored (null before its first run), for GET /api/sources. */
export async function readWorkerReport(db: D1Database): Promise<string | null> {
  return db.prepare('SELECT value FROM watch_state WHERE name = ?1').bind(SOURCE_REPORT_KEY).first<string>('value');
}
