// A worker that runs D1 operations sent to it as JSON on its own D1 binding: the in-process tests' way to the real
// local D1 in one request per operation (tests/support/d1-over-http.ts says why, tests/node/d1-over-http.test.ts
// checks it). Plain JavaScript, the worker's `main` for Miniflare; the protocol is the client's.

/** A bound value as D1 takes it: `{ $undefined: 1 }` stands for undefined, which JSON would turn into null. */
const revive = (value) => (value !== null && typeof value === 'object' && value.$undefined === 1 ? undefined : value);

function statementOf(db, { sql, params }) {
  const statement = db.prepare(sql);
  return params.length === 0 ? statement : statement.bind(...params.map(revive));
}

async function run(db, { op, statements, column, columnNames }) {
  if (op === 'exec') return db.exec(statements[0].sql);
  if (op === 'batch') return db.batch(statements.map((statement) => statementOf(db, statement)));
  const statement = statementOf(db, statements[0]);
  if (op === 'first') return column === undefined ? statement.first() : statement.first(column);
  if (op === 'all') return statement.all();
  if (op === 'run') return statement.run();
  if (op === 'raw') return statement.raw({ columnNames: columnNames === true });
  throw new Error(`the D1 gateway has no operation ${op}`);
}

export default {
  async fetch(request, env) {
    try {
      // Every operation answers a value, or null (first() of no row).
      return Response.json({ result: (await run(env.DB, await request.json())) ?? null });
    } catch (error) {
      return Response.json({ error: { name: error.name, message: error.message } }, { status: 500 });
    }
  },
};
