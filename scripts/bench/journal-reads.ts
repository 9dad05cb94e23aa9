// D1's rows read by the journal's read of one request (docs/performance.md, "The journal's cost"): the worker's own
// `journalEvents` (src/server/journal/read.ts) and the board's watcher-report read, run against wrangler's local D1
// (getPlatformProxy, workerd's D1 with the repository's migrations), whose `meta.rows_read` is the count Cloudflare
// bills and limits (Workers Free: 5 million rows read a day). The in-process SQLite of the CPU figures counts calls,
// not rows.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { getPlatformProxy } from 'wrangler';
import { SOURCE_REPORT_KEY, storedSourceReport } from '../../src/core/sources.ts';
import { journalEvents } from '../../src/server/journal/read.ts';
import { readWorkerReport } from '../../src/server/watch/store.ts';
import { copyMigratedD1 } from '../lib/local-d1.ts';
import { confirmEvents, JOURNAL_EVENTS, journalBenchEvents } from './cpu.ts';

/** The Workers Free plan's D1 rows read a day (Cloudflare's D1 pricing page). */
export const FREE_ROWS_READ_PER_DAY = 5_000_000;
const DAY_SECONDS = 86_400;

/** A D1 whose calls report the rows each read (`meta.rows_read`); `first` is asked as `all` to see its meta. */
function meteredD1(db: D1Database, meter: { rowsRead: number; calls: number }): D1Database {
  const metered = (statement: D1PreparedStatement): D1PreparedStatement =>
    ({
      bind: (...values: unknown[]) => metered(statement.bind(...values)),
      async all<T>() {
        const result = await statement.all<T>();
        meter.calls += 1;
        meter.rowsRead += result.meta.rows_read;
        return result;
      },
      async first<T>(column?: string) {
        const { results } = await metered(statement).all<Record<string, unknown>>();
        const row = results[0];
        if (row === undefined) return null;
        return (column === undefined ? row : row[column]) as T;
      },
    }) as unknown as D1PreparedStatement;
  return { prepare: (sql: string) => metered(db.prepare(sql)) } as unknown as D1Database;
}

export interface JournalReads {
  state: string;
  /**
   * Rows read by the journal's read when the isolate does not hold this version of the journal (its first request,
   * or the first after a confirm, withdrawal or retirement): the version row, then the live entries.
   */
  changedRows: number;
  /** Rows read by the journal's read of every other event-dependent request: the version row alone. */
  journalRows: number;
  /** Rows read by the watcher report's read (the board page's line on the sources; /api/sources). */
  reportRows: number;
}

/** Rows read per request with the journal empty, with 1 and 20 live events, and with 1,000 retired entries beside. */
export async function measureJournalReads(): Promise<JournalReads[]> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'departures-board-journal-reads-'));
  const configPath = path.join(folder, 'wrangler.json');
  const databases = [{ binding: 'DB', database_name: 'journal-reads', database_id: 'journal-reads' }];
  await writeFile(
    configPath,
    JSON.stringify({ name: 'journal-reads', compatibility_date: '2026-10-01', d1_databases: databases }),
  );
  await copyMigratedD1(databases, folder);
  const proxy = await getPlatformProxy<{ DB: D1Database }>({ configPath, persist: { path: path.join(folder, 'v3') } });
  const db = proxy.env.DB;
  const now = new Date();
  const rows: JournalReads[] = [];
  // One binding for the whole run, as an isolate has: the journal's read keeps the entries of the version it read.
  const journal = { rowsRead: 0, calls: 0 };
  const isolateDb = meteredD1(db, journal);
  const journalRead = async () => {
    journal.rowsRead = 0;
    await journalEvents(isolateDb);
    return journal.rowsRead;
  };
  const measure = async (state: string) => {
    const changedRows = await journalRead();
    const journalRows = await journalRead();
    const report = { rowsRead: 0, calls: 0 };
    await readWorkerReport(meteredD1(db, report));
    rows.push({ state, changedRows, journalRows, reportRows: report.rowsRead });
  };
  try {
    // The minute cron's source report, as a deployment's database holds it.
    await db
      .prepare('INSERT INTO watch_state (name, value) VALUES (?1, ?2)')
      .bind(SOURCE_REPORT_KEY, storedSourceReport({ checkedAt: now.toISOString(), sources: [] }))
      .run();
    await measure('empty');
    const events = journalBenchEvents(now.getTime() - 3_600_000, now);
    await confirmEvents(db, events.slice(0, 1), now);
    await measure('1 live event');
    await confirmEvents(db, events.slice(1), now);
    await measure(`${JOURNAL_EVENTS} live events`);
    // Entries that left the journal (retired by a build, or withdrawn) stay as rows; the partial index passes them by.
    await db
      .prepare(
        `WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
         INSERT INTO journal (id, draft_id, provider, event, confirmed_at, state, state_at, git_next_at, git_state)
         SELECT 'retired-' || i, 'retired-' || i, 'provider_a', '{}', ?1, 'retired', ?1, ?1, 'committed' FROM n`,
      )
      .bind(now.toISOString())
      .run();
    await measure(`${JOURNAL_EVENTS} live events, 1,000 retired`);
    await db.prepare("UPDATE journal SET state = 'retired' WHERE state = 'live'").run();
    await measure(`empty, ${(1000 + JOURNAL_EVENTS).toLocaleString('en')} retired`);
  } finally {
    await proxy.dispose();
    await rm(folder, { recursive: true, force: true });
  }
  return rows;
}

/** Rows read a day by `perRequest` rows at `perSecond` requests a second, and its share of Free's daily 5 million. */
export const rowsPerDay = (perRequest: number, perSecond: number) => perRequest * perSecond * DAY_SECONDS;
