import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REAL_D1, type StateDatabase, startStateDatabase } from '../support/state-d1.ts';

/**
 * The in-process files' D1 client (tests/support/d1-over-http.ts) answers as the binding does: each expectation is
 * what Cloudflare's D1 API documents for the call, asked of the real local D1 behind it.
 */

let database: StateDatabase;
beforeAll(async () => {
  database = await startStateDatabase();
  await database.db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL, seen INTEGER)');
}, REAL_D1.timeout);
afterAll(() => database?.dispose());

describe("the tests' D1 client", REAL_D1, () => {
  it('binds, writes and reads back rows, with the counts D1 reports', async () => {
    const { db } = database;
    const written = await db
      .prepare('INSERT INTO notes (id, body, seen) VALUES (?1, ?2, ?3)')
      .bind(1, 'one', null)
      .run();
    expect(written.success).toBe(true);
    expect(written.meta.changes).toBe(1);
    expect(written.meta.last_row_id).toBe(1);
    expect(await db.prepare('SELECT body, seen FROM notes WHERE id = ?').bind(1).first()).toEqual({
      body: 'one',
      seen: null,
    });
    expect(await db.prepare('SELECT body FROM notes WHERE id = ?').bind(1).first('body')).toBe('one');
    expect(await db.prepare('SELECT body FROM notes WHERE id = ?').bind(2).first()).toBeNull();
    expect((await db.prepare('SELECT id, body FROM notes').all()).results).toEqual([{ id: 1, body: 'one' }]);
    expect(await db.prepare('SELECT id, body FROM notes').raw()).toEqual([[1, 'one']]);
    expect(await db.prepare('SELECT id, body FROM notes').raw({ columnNames: true })).toEqual([
      ['id', 'body'],
      [1, 'one'],
    ]);
  });

  it('runs a batch as one transaction: a failing statement leaves nothing of the others', async () => {
    const { db } = database;
    const insert = db.prepare('INSERT INTO notes (id, body) VALUES (?1, ?2)');
    const results = await db.batch([insert.bind(10, 'ten'), insert.bind(11, 'eleven')]);
    expect(results.map((result) => result.meta.changes)).toEqual([1, 1]);
    await expect(db.batch([insert.bind(12, 'twelve'), insert.bind(10, 'again')])).rejects.toThrow(/UNIQUE/);
    expect(await db.prepare('SELECT count(*) AS n FROM notes WHERE id = 12').first('n')).toBe(0);
  });

  it("throws D1's own errors, and refuses an undefined value as the binding does", async () => {
    const { db } = database;
    await expect(db.prepare('SELECT * FROM no_such_table').all()).rejects.toThrow(/^D1_ERROR: no such table/);
    await expect(db.prepare('SELECT ?1 AS value').bind(undefined).first()).rejects.toThrow(/undefined/);
    expect(() => db.prepare('SELECT ?1').bind(new Uint8Array([1]))).toThrow(/binds only JSON values/);
  });
});
