import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';

/**
 * The state database for the CPU benchmarks only: the repository's migrations in an in-memory SQLite of this process,
 * behind the few D1 calls the worker makes (prepare, bind, all, first, run, batch). In production D1 runs outside
 * the worker and costs it only the calls; wrangler's local D1 (getPlatformProxy) costs this process an RPC each,
 * which would be counted as the worker's CPU. The CPU time SQLite itself spends (D1's work, not the worker's) is
 * added up in `spentMs`, for the benchmark to leave out. The tests use the real local D1.
 */

/**
 * CPU milliseconds SQLite spent on the calls so far, and how many calls the worker made (`all`, `first`, `run`,
 * and a `batch` as one: each is one query of the platform's per-invocation count).
 */
export const d1Cpu = { spentMs: 0, calls: 0 };

function timed<T>(work: () => T): T {
  const start = process.cpuUsage();
  try {
    return work();
  } finally {
    const used = process.cpuUsage(start);
    d1Cpu.spentMs += (used.user + used.system) / 1000;
  }
}

const MIGRATIONS = path.resolve(import.meta.dirname, '../../migrations');

class Statement {
  private readonly database: DatabaseSync;
  private readonly sql: string;
  private readonly values: SQLInputValue[];
  constructor(database: DatabaseSync, sql: string, values: SQLInputValue[] = []) {
    this.database = database;
    this.sql = sql;
    this.values = values;
  }
  bind(...values: unknown[]): Statement {
    return new Statement(this.database, this.sql, values as SQLInputValue[]);
  }
  async all<T>() {
    d1Cpu.calls += 1;
    return this.allNow<T>();
  }
  allNow<T>() {
    const results = timed(() => this.database.prepare(this.sql).all(...this.values)) as T[];
    return { results, success: true, meta: { changes: 0 } };
  }
  async first<T>(column?: string): Promise<T | null> {
    d1Cpu.calls += 1;
    const row = timed(() => this.database.prepare(this.sql).get(...this.values)) as Record<string, unknown> | undefined;
    if (row === undefined) return null;
    return (column === undefined ? row : row[column]) as T;
  }
  async run() {
    d1Cpu.calls += 1;
    const result = timed(() => this.database.prepare(this.sql).run(...this.values));
    return { results: [], success: true, meta: { changes: Number(result.changes) } };
  }
}

/**
 * `migrations` is the folder of SQL files applied in name order: this checkout's by default, or an older checkout's
 * (the delivery benchmark's "before" runs the code of an older commit on that commit's schema).
 */
export function sqliteD1(migrations = MIGRATIONS): D1Database & { empty(): void } {
  const database = new DatabaseSync(':memory:');
  for (const file of readdirSync(migrations)
    .filter((name) => name.endsWith('.sql'))
    .sort())
    database.exec(readFileSync(path.join(migrations, file), 'utf8'));
  const tables = (
    database.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT GLOB 'sqlite_*'").all() as {
      name: string;
    }[]
  ).map((row) => row.name);
  const d1 = {
    prepare: (sql: string) => new Statement(database, sql),
    async batch(statements: Statement[]) {
      d1Cpu.calls += 1;
      timed(() => database.exec('BEGIN'));
      try {
        const results = statements.map((statement) => statement.allNow());
        timed(() => database.exec('COMMIT'));
        return results;
      } catch (error) {
        database.exec('ROLLBACK');
        throw error;
      }
    },
    empty() {
      for (const table of tables.reverse()) database.exec(`DELETE FROM "${table}"`);
    },
  };
  return d1 as unknown as D1Database & { empty(): void };
}
