import type { CronRecord } from '../../core/health.ts';

/**
 * The cron's record (docs/health.md, "The cron"): each scheduled run's outcome in `dispatch_state` under
 * `health:cron` (JSON: last run, last success, failures in a row, which parts of the last run failed). A run whose
 * record cannot be written (the database locked or gone) counts as failed, and is kept in the isolate until a later
 * run can write it, so that the failures in a row are counted once the database takes writes again.
 */

export const CRON_RECORD_NAME = 'health:cron';

/** The newest record this isolate made, written or not. */
let remembered: CronRecord | null = null;

const newer = (a: CronRecord | null, b: CronRecord | null): CronRecord | null =>
  a === null ? b : b === null ? a : a.lastRun >= b.lastRun ? a : b;

function parsed(text: string | null | undefined): CronRecord | null {
  if (text === null || text === undefined) return null;
  try {
    const value = JSON.parse(text) as Partial<CronRecord>;
    if (typeof value.lastRun !== 'string') return null;
    return {
      lastRun: value.lastRun,
      lastSuccess: typeof value.lastSuccess === 'string' ? value.lastSuccess : null,
      failuresInRow: typeof value.failuresInRow === 'number' ? value.failuresInRow : 0,
      failed: Array.isArray(value.failed) ? value.failed.filter((part) => typeof part === 'string') : [],
    };
  } catch {
    return null;
  }
}

/** The stored record, or this isolate's newer one; null when neither exists or the database cannot be read. */
export async function readCronRecord(db: D1Database): Promise<CronRecord | null> {
  let stored: CronRecord | null = null;
  try {
    stored = parsed(
      await db
        .prepare('SELECT value FROM dispatch_state WHERE name = ?1')
        .bind(CRON_RECORD_NAME)
        .first<string>('value'),
    );
  } catch {
    // Not migrated, or not reachable: the database's part says so.
  }
  return newer(stored, remembered);
}

/** Stores `record`; false when it could not be written (it is then remembered in the isolate). */
export async function writeCronRecord(db: D1Database, record: CronRecord): Promise<boolean> {
  remembered = newer(remembered, record);
  try {
    await db
      .prepare(
        'INSERT INTO dispatch_state (name, value) VALUES (?1, ?2) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
      )
      .bind(CRON_RECORD_NAME, JSON.stringify(record))
      .run();
    return true;
  } catch (error) {
    console.error('the cron could not record its run:', String(error));
    return false;
  }
}
