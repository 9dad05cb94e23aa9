/**
 * The real local D1 for code run in the test's own process, one request per operation. The D1 runs in workerd, as
 * `wrangler dev`'s does; a small worker of the tests' own (tests/support/d1-gateway.worker.js) runs each operation on
 * its binding, and this client is the `D1Database` the code under test is handed.
 *
 * Why not wrangler's `getPlatformProxy()`, which hands Node the binding itself: its proxy makes every call it does not
 * know to be asynchronous a synchronous round trip (a worker thread and `Atomics.wait`), and `prepare`, `bind` and
 * the first call of each statement's methods are such calls, so one query was four or five round trips, about 16 ms
 * of CPU; the in-process files with a real D1 spent most of their CPU there (docs/testing.md, "Test time"). Here
 * `prepare` and `bind` stay in this process and the query is one request. Every SQL statement still runs in the
 * real D1; only values JSON can carry are bound (a test that binds anything else fails with a clear error).
 */

import { Agent, request } from 'node:http';

/** One connection kept open per database: a query is a request, not a connection. */
const agent = new Agent({ keepAlive: true });

/**
 * POSTs `body`, resolves with the answer's text. Node's own HTTP client, not `fetch`: a test may replace the global
 * `fetch` to catch what the code under test sends (src/server/watch/review-confirm-link.test.ts).
 */
function post(url: string, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json' } },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        answer.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

interface Statement {
  sql: string;
  params: unknown[];
}

type Operation =
  | { op: 'first'; statements: [Statement]; column?: string }
  | { op: 'all' | 'run'; statements: [Statement] }
  | { op: 'raw'; statements: [Statement]; columnNames: boolean }
  | { op: 'batch'; statements: Statement[] }
  | { op: 'exec'; statements: [Statement] };

/** undefined is sent as `{ $undefined: 1 }` (JSON would make it null), so that D1 refuses it as it would. */
function boundValue(value: unknown): unknown {
  if (value === undefined) return { $undefined: 1 };
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return value;
  throw new TypeError(
    `the tests' D1 client binds only JSON values (null, strings, numbers, booleans): ${typeof value}`,
  );
}

type Send = <T>(operation: Operation) => Promise<T>;

class HttpStatement implements D1PreparedStatement {
  readonly #send: Send;
  readonly statement: Statement;

  constructor(send: Send, statement: Statement) {
    this.#send = send;
    this.statement = statement;
  }

  bind(...values: unknown[]): D1PreparedStatement {
    return new HttpStatement(this.#send, { sql: this.statement.sql, params: values.map(boundValue) });
  }

  first<T = unknown>(column: string): Promise<T | null>;
  first<T = Record<string, unknown>>(): Promise<T | null>;
  first<T>(column?: string): Promise<T | null> {
    return this.#send<T | null>({
      op: 'first',
      statements: [this.statement],
      ...(column === undefined ? {} : { column }),
    });
  }

  run<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    return this.#send({ op: 'run', statements: [this.statement] });
  }

  all<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    return this.#send({ op: 'all', statements: [this.statement] });
  }

  raw<T = unknown[]>(options: { columnNames: true }): Promise<[string[], ...T[]]>;
  raw<T = unknown[]>(options?: { columnNames?: false }): Promise<T[]>;
  raw<T>(options?: { columnNames?: boolean }): Promise<T[] | [string[], ...T[]]> {
    return this.#send({ op: 'raw', statements: [this.statement], columnNames: options?.columnNames === true });
  }
}

class HttpD1 implements D1Database {
  readonly #url: string;

  constructor(url: string) {
    this.#url = url;
  }

  readonly #send: Send = async <T>(operation: Operation): Promise<T> => {
    const answer = JSON.parse(await post(this.#url, JSON.stringify(operation))) as
      | { result: T }
      | { error: { name: string; message: string } };
    if ('error' in answer) {
      // D1's own message (`D1_ERROR: …`), which the code under test reads, as the binding would throw it.
      const error = new Error(answer.error.message);
      error.name = answer.error.name;
      throw error;
    }
    return answer.result;
  };

  prepare(sql: string): D1PreparedStatement {
    return new HttpStatement(this.#send, { sql, params: [] });
  }

  batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    return this.#send({ op: 'batch', statements: statements.map((statement) => statementOf(statement)) });
  }

  exec(sql: string): Promise<D1ExecResult> {
    return this.#send({ op: 'exec', statements: [{ sql, params: [] }] });
  }

  withSession(): D1DatabaseSession {
    throw new Error("the tests' D1 client has no sessions (the service uses none)");
  }

  dump(): Promise<ArrayBuffer> {
    throw new Error("the tests' D1 client has no dump (the service uses none)");
  }
}

function statementOf(statement: D1PreparedStatement): Statement {
  if (!(statement instanceof HttpStatement)) throw new TypeError('a statement of another database was batched');
  return statement.statement;
}

/** The `D1Database` of the gateway worker listening at `url`. */
export function d1OverHttp(url: string): D1Database {
  return new HttpD1(url);
}
