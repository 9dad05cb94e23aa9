import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { nonAdditiveStatements } from '../../scripts/lib/additive-migrations.ts';
import { projectRoot } from '../../scripts/lib/tools.ts';

/**
 * Every migration of the state database is additive (decisions.md, "Operable"; docs/deploy.md, "Migrations"), so
 * that deploy.yml may migrate before it deploys and `wrangler rollback` may bring back older code: the scan of
 * scripts/lib/additive-migrations.ts refuses each non-additive statement (proved below on fixture SQL), and SQLite
 * itself applies the migrations in order and keeps every name the one before had.
 */

const MIGRATIONS = path.join(projectRoot, 'migrations');
const files = readdirSync(MIGRATIONS)
  .filter((file) => file.endsWith('.sql'))
  .sort();
const read = (file: string) => readFileSync(path.join(MIGRATIONS, file), 'utf8');

/** Every table's and view's columns, every trigger and unique index, by name: what an older worker may use. */
function schemaNames(database: DatabaseSync): string[] {
  const names: string[] = [];
  const objects = database
    .prepare("SELECT type, name, tbl_name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name")
    .all() as { type: string; name: string; tbl_name: string }[];
  for (const { type, name } of objects) {
    if (type === 'table' || type === 'view') {
      names.push(`${type} ${name}`);
      for (const column of database.prepare(`PRAGMA table_info("${name}")`).all() as { name: string }[])
        names.push(`column ${name}.${column.name}`);
    } else if (type === 'trigger') names.push(`trigger ${name}`);
  }
  for (const { name } of objects.filter(({ type }) => type === 'table')) {
    for (const index of database.prepare(`PRAGMA index_list("${name}")`).all() as {
      name: string;
      unique: number;
      origin: string;
    }[])
      if (index.unique && index.origin === 'c') names.push(`unique index ${index.name}`);
  }
  return names;
}

describe('the migrations of the state database', () => {
  it('are there, numbered in order', () => {
    expect(files[0]).toBe('0001_state.sql');
    for (const [index, file] of files.entries())
      expect(file).toMatch(new RegExp(`^${String(index + 1).padStart(4, '0')}_[a-z0-9_]+\\.sql$`));
  });

  it('drop and rename nothing (the scan)', () => {
    const uniqueIndexes = new Set<string>();
    // The first creates the database, and with it the names the others must keep.
    for (const file of files) expect(nonAdditiveStatements(read(file), uniqueIndexes), file).toEqual([]);
  });

  it('keep, applied in order by SQLite, every table, column, view, trigger and unique index the one before had', () => {
    const database = new DatabaseSync(':memory:');
    let before: string[] = [];
    for (const file of files) {
      database.exec(read(file));
      const after = schemaNames(database);
      expect(
        before.filter((name) => !after.includes(name)),
        file,
      ).toEqual([]);
      before = after;
    }
    database.close();
  });
});

describe('the scan refuses each non-additive statement', () => {
  it.each([
    ['DROP TABLE deliveries;', 'DROP TABLE deliveries: an older worker still reads it'],
    ['drop table if exists main.watch_drafts;', 'DROP TABLE watch_drafts: an older worker still reads it'],
    ['DROP VIEW recent;', 'DROP VIEW recent: an older worker still reads it'],
    ['DROP TRIGGER keep_topics;', 'DROP TRIGGER keep_topics: an older worker still reads it'],
    [
      'ALTER TABLE subscribers DROP COLUMN failing_since;',
      'ALTER TABLE subscribers DROP COLUMN: an older worker still reads the column',
    ],
    [
      'ALTER TABLE "subscribers" DROP failing_since;',
      'ALTER TABLE subscribers DROP COLUMN: an older worker still reads the column',
    ],
    [
      'ALTER TABLE deliveries RENAME TO ledger;',
      'ALTER TABLE deliveries RENAME TO: an older worker still uses the old name',
    ],
    [
      'ALTER TABLE subscribers RENAME COLUMN address TO url;',
      'ALTER TABLE subscribers RENAME COLUMN: an older worker still uses the old name',
    ],
    [
      'ALTER TABLE subscribers RENAME address TO url;',
      'ALTER TABLE subscribers RENAME COLUMN: an older worker still uses the old name',
    ],
    [
      'CREATE UNIQUE INDEX one_per_url ON subscribers (address);\nDROP INDEX one_per_url;',
      "DROP INDEX one_per_url: a unique index, which an older worker's ON CONFLICT may need",
    ],
  ])('%s', (sql, refusal) => {
    expect(nonAdditiveStatements(`-- a fixture\nCREATE TABLE t (a TEXT);\n${sql}\n`)).toEqual([refusal]);
  });

  it('the refused statements are refused among others, each on its own line', () => {
    const sql = `ALTER TABLE subscribers ADD COLUMN note TEXT;
DROP TABLE watch_drafts;
/* a comment */ ALTER TABLE deliveries RENAME COLUMN last_error TO error;`;
    expect(nonAdditiveStatements(sql)).toEqual([
      'DROP TABLE watch_drafts: an older worker still reads it',
      'ALTER TABLE deliveries RENAME COLUMN: an older worker still uses the old name',
    ]);
  });

  it('allows what is additive, and a DROP or RENAME inside a comment, a string or a name', () => {
    const sql = `-- DROP TABLE subscribers;
/* ALTER TABLE deliveries RENAME TO ledger;
   still the comment */
CREATE TABLE "drop table notes" (id INTEGER PRIMARY KEY, body TEXT DEFAULT 'DROP TABLE x; ALTER TABLE y RENAME TO z');
ALTER TABLE subscribers ADD COLUMN [rename] TEXT;
ALTER TABLE subscribers ADD COLUMN note TEXT DEFAULT 'it''s; DROP COLUMN';
CREATE INDEX deliveries_by_event ON deliveries (event_id);
DROP INDEX deliveries_by_event;
DROP INDEX IF EXISTS an_old_plain_index;
INSERT INTO dispatch_state (name, value) VALUES ('drop', 'ALTER TABLE t RENAME TO u');
CREATE TRIGGER stamp AFTER INSERT ON subscribers BEGIN
  UPDATE subscribers SET note = 'x; DROP TABLE y' WHERE id = new.id;
  DELETE FROM subscriber_topics WHERE subscriber_id = -1;
END;`;
    expect(nonAdditiveStatements(sql)).toEqual([]);
  });
});
