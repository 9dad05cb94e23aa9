/**
 * Refuses a migration of the state database that is not additive (docs/deploy.md, "Migrations"). deploy.yml
 * applies the migrations before the new worker goes live, so the worker still running, and any older version that
 * `wrangler rollback` brings back, meet the new schema: it must still hold every table, column, view, trigger and
 * unique index they knew. Refused: DROP TABLE, DROP VIEW, DROP TRIGGER, ALTER TABLE … DROP COLUMN, ALTER TABLE …
 * RENAME TO and ALTER TABLE … RENAME [COLUMN] … TO, and DROP INDEX of an index made UNIQUE (an old worker's
 * `ON CONFLICT` upsert needs it). DROP INDEX of a plain index is allowed: an old worker's queries give the same
 * answers without it, only slower.
 *
 * Not a SQL parser: no package on npm parses SQLite's whole dialect and is well kept (node-sql-parser's SQLite
 * grammar is a subset; sqlite-parser has not been released since 2017), and SQLite itself, which is the real
 * parser, exposes no syntax tree. So a tokenizer that knows what SQLite skips: `--` and `/* … *\/` comments,
 * '…' strings (with '' inside), and "…", `…` and […] identifiers, so that a DROP in a comment, a string or a name
 * is not taken for one. Statements end at `;`, except inside CREATE TRIGGER … BEGIN … END. The test also runs
 * every migration in SQLite (node:sqlite) and checks the schema kept every name, so the two agree.
 */

interface Token {
  /** A keyword or bare name, upper-cased; a quoted name keeps its text. */
  text: string;
  quoted: boolean;
}

/** SQL as tokens of names and keywords, and `;` (everything else, numbers and operators, is left out). */
export function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  const quotedUntil = (close: string, doubled: boolean) => {
    let text = '';
    index += 1;
    while (index < sql.length) {
      const char = sql[index] as string;
      if (char === close) {
        if (doubled && sql[index + 1] === close) {
          text += close;
          index += 2;
          continue;
        }
        index += 1;
        return text;
      }
      text += char;
      index += 1;
    }
    throw new Error(`unterminated ${close} in the migration`);
  };
  while (index < sql.length) {
    const char = sql[index] as string;
    if (char === '-' && sql[index + 1] === '-') {
      const end = sql.indexOf('\n', index);
      index = end === -1 ? sql.length : end + 1;
    } else if (char === '/' && sql[index + 1] === '*') {
      const end = sql.indexOf('*/', index + 2);
      // SQLite lets a block comment run to the end of the input.
      index = end === -1 ? sql.length : end + 2;
    } else if (char === "'") {
      quotedUntil("'", true);
    } else if (char === '"' || char === '`') {
      tokens.push({ text: quotedUntil(char, true), quoted: true });
    } else if (char === '[') {
      tokens.push({ text: quotedUntil(']', false), quoted: true });
    } else if (char === ';') {
      tokens.push({ text: ';', quoted: false });
      index += 1;
    } else if (/[A-Za-z_\u0080-\uffff]/.test(char)) {
      const match = /^[A-Za-z0-9_$\u0080-\uffff]+/.exec(sql.slice(index)) as RegExpExecArray;
      tokens.push({ text: match[0].toUpperCase(), quoted: false });
      index += match[0].length;
    } else {
      index += 1;
    }
  }
  return tokens;
}

/** The statements of a migration, each as its tokens (a trigger's body stays inside its CREATE TRIGGER). */
export function statements(sql: string): Token[][] {
  const all: Token[][] = [];
  let current: Token[] = [];
  for (const token of tokenize(sql)) {
    if (token.text === ';' && !token.quoted) {
      const [first, second, third] = words(current);
      const isTrigger =
        first === 'CREATE' &&
        (second === 'TRIGGER' || (['TEMP', 'TEMPORARY'].includes(second ?? '') && third === 'TRIGGER'));
      if (isTrigger && !(current.at(-1)?.text === 'END' && !current.at(-1)?.quoted)) {
        current.push(token);
        continue;
      }
      if (current.length > 0) all.push(current);
      current = [];
    } else current.push(token);
  }
  if (current.length > 0) all.push(current);
  return all;
}

const words = (tokens: Token[]) => tokens.map((token) => (token.quoted ? `"${token.text}"` : token.text));
const nameOf = (token: Token | undefined) =>
  token === undefined ? '?' : token.quoted ? token.text : token.text.toLowerCase();

/** After `IF EXISTS`, and a `schema.` prefix: the object's name. */
function objectName(tokens: Token[], at: number): string {
  let index = at;
  if (words(tokens)[index] === 'IF' && words(tokens)[index + 1] === 'EXISTS') index += 2;
  // `main.name`: the tokenizer drops the dot, so a schema prefix shows as two names in a row.
  if (['MAIN', 'TEMP'].includes(words(tokens)[index] ?? '') && tokens[index + 1] !== undefined) index += 1;
  return nameOf(tokens[index]);
}

/** Why a migration is not additive, one line per refused statement; `uniqueIndexes` carries over between files. */
export function nonAdditiveStatements(sql: string, uniqueIndexes: Set<string> = new Set()): string[] {
  const refused: string[] = [];
  for (const statement of statements(sql)) {
    const w = words(statement);
    if (w[0] === 'CREATE' && w[1] === 'UNIQUE' && w[2] === 'INDEX') {
      uniqueIndexes.add(objectName(statement, 3));
    } else if (w[0] === 'DROP' && ['TABLE', 'VIEW', 'TRIGGER'].includes(w[1] ?? '')) {
      refused.push(`DROP ${w[1]} ${objectName(statement, 2)}: an older worker still reads it`);
    } else if (w[0] === 'DROP' && w[1] === 'INDEX') {
      const name = objectName(statement, 2);
      if (uniqueIndexes.has(name))
        refused.push(`DROP INDEX ${name}: a unique index, which an older worker's ON CONFLICT may need`);
    } else if (w[0] === 'ALTER' && w[1] === 'TABLE') {
      const table = objectName(statement, 2);
      const action = w.findIndex((word, i) => i > 2 && (word === 'RENAME' || word === 'DROP'));
      if (action === -1) continue;
      if (w[action] === 'DROP')
        refused.push(`ALTER TABLE ${table} DROP COLUMN: an older worker still reads the column`);
      else if (w[action + 1] === 'TO')
        refused.push(`ALTER TABLE ${table} RENAME TO: an older worker still uses the old name`);
      else refused.push(`ALTER TABLE ${table} RENAME COLUMN: an older worker still uses the old name`);
    }
  }
  return refused;
}
