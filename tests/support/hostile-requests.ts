import fc from 'fast-check';
import type { RouteSpec } from '../../src/core/routes/route.ts';
import { ROUTES } from '../../src/core/routes/table.ts';

/** Hostile query strings, path segments and bodies for the HTTP fuzz tests (and `npm run fuzz`). */

/**
 * A random string of `min` to `max` characters: a random unit of up to 50 characters, repeated. fast-check makes
 * a long `fc.string` one character at a time, which was nine tenths of the fuzz files' time (query.fuzz: 11.6 s
 * against 0.9 s); what a long value tests is its length.
 */
export const longString = (min: number, max: number): fc.Arbitrary<string> =>
  fc
    .tuple(fc.string({ minLength: 1, maxLength: 50 }), fc.integer({ min, max }))
    .map(([unit, length]) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length));

const KEYS = [
  'provider',
  'limit',
  'format',
  'resetAt',
  'weeklyAt',
  'tz',
  'locale',
  'x',
  'utm_source',
  '',
  '%00',
  'provider%5B%5D',
];
const VALUES = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.constantFrom(
    'provider_a',
    'provider_b',
    'all',
    '0',
    '1',
    '500',
    '501',
    '-1',
    '1e2',
    '0x10',
    ' 7',
    '%00',
    '%E2%80%AE',
    '%FF%FE',
    '%',
    '%%',
    '2026-11-21T18:30:00%2B08:00',
    '2026-11-21T18:30:00Z',
    '2026-02-30T18:30:00Z',
    'Europe%2FBerlin%0D%0ADTSTART:1',
    'zh',
    'csv',
  ),
  longString(1_000, 4_000).map(encodeURIComponent),
);

/** A raw query string: keys repeated, values sometimes percent-encoded, sometimes raw (and then broken). */
export const hostileQuery = fc
  .array(fc.tuple(fc.constantFrom(...KEYS), VALUES, fc.boolean()), { maxLength: 8 })
  .map((pairs) =>
    pairs
      .map(([key, value, encode]) => `${key}=${encode ? encodeURIComponent(value) : value.replace(/[#\s]/g, '')}`)
      .join('&'),
  );

/** A path segment where a provider name goes. */
export const hostileSegment = fc.oneof(
  fc.constantFrom(
    'provider_a',
    'provider_c',
    'provider_a.svg',
    'provider_b.json',
    'PROVIDER_A',
    '..',
    '%2e%2e',
    '%00',
    '%E2%80%AE',
    '%',
    'a'.repeat(300),
  ),
  fc.string({ maxLength: 20 }).map(encodeURIComponent),
);

/** MCP request bodies: valid calls, near-misses and garbage. */
export const hostileMcpBody = fc.oneof(
  fc.constantFrom(
    '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_timeline","arguments":{"limit":"x"}}}',
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_next_estimate","arguments":{"provider":null}}}',
    '{"jsonrpc":"1.0","id":1,"method":"ping"}',
    '{"id":1,"method":"ping"}',
    '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"tools/list"}]',
    '[]',
    '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    `{"jsonrpc":"2.0","id":${'9'.repeat(400)},"method":"ping"}`,
    `{"jsonrpc":"2.0","id":"${'x'.repeat(10_000)}","method":"ping"}`,
    '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}',
    'null',
    '',
  ),
  fc.json({ maxDepth: 3 }),
  fc.string({ maxLength: 200 }),
);

/**
 * A body a client may send to a write path that takes JSON (push subscriptions, chat webhooks): any JSON text,
 * the text of any JSON value, or any string at all.
 */
export const hostileJsonBody = fc.oneof(
  fc.json(),
  fc.string(),
  fc.jsonValue().map((value) => JSON.stringify(value)),
);

/** One fuzzed request and the statuses its answer may have. */
export interface HostileProbe {
  path: string;
  init?: RequestInit;
  allowed: readonly number[];
  /** The largest body the answer may have, when it is bounded (an MCP batch: at most 20 messages' answers). */
  maxBodyBytes?: number;
}

/**
 * Whether `path` is an odd form of a path (docs/api.md "Odd paths"): a trailing slash once the URL is normalized
 * ('', '.'), or percent-escapes that may spell plain characters. Such a path is one 308 to the canonical path,
 * or 404, so a probe of it allows both besides its route's own statuses.
 */
export function isOddPathForm(path: string): boolean {
  const { pathname } = new URL(path, 'http://localhost');
  return (pathname.endsWith('/') && pathname !== '/') || pathname.includes('%');
}

/**
 * POST /mcp with a hostile body under a media type of the list, asking for JSON or for JSON and SSE;
 * `headers` adds headers of each request's own (over HTTP: a client address of its own, for the rate limiter).
 */
export const hostileMcpRequest = (headers: () => Record<string, string> = () => ({})): fc.Arbitrary<HostileProbe> =>
  fc
    .tuple(
      hostileMcpBody,
      fc.constantFrom(
        'application/json',
        'application/json; charset=utf-8',
        'text/plain',
        'application/x-www-form-urlencoded',
      ),
      fc.boolean(),
    )
    .map(([body, contentType, sse]) => ({
      path: '/mcp',
      init: {
        method: 'POST',
        body,
        headers: {
          'Content-Type': contentType,
          ...headers(),
          ...(sse ? { Accept: 'application/json, text/event-stream' } : {}),
        },
      },
      allowed: [200, 202, 400, 413, 415],
    }));

/** The messages a fuzzed batch is made of: requests (one of them the largest answer there is), a notification, a response. */
const BATCH_MESSAGES = [
  { jsonrpc: '2.0', id: 1, method: 'ping' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_timeline', arguments: { limit: 100 } } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 4, result: {} },
];
const NOT_MESSAGES = [{ hello: 'world' }, 42, null, 'ping', [], { jsonrpc: '2.0', id: 5, method: 'ping', params: [1] }];
/** decisions.md: a batch of more than this many messages is 400 (-32600), whatever the protocol header. */
const MAX_BATCH = 20;
/** 20 answers of `get_timeline` with 100 events each, with room: what a batch's answer can never exceed. */
const BATCH_ANSWER_MAX_BYTES = 2 * 1024 * 1024;

/**
 * POST /mcp with JSON-RPC batches around the limit (1, 19, 20, 21, 22, 100 messages), nested batches, batches
 * with a message that is not one, and batches under a protocol revision without batches (answered all the same:
 * the SDK's, decisions.md limits their length only). What each may answer is decided from its shape: a well-formed
 * batch of at most 20 is answered (202 when it holds no request), any other is 400; none may answer more than 20
 * messages' worth.
 */
export const mcpBatchRequest = (headers: () => Record<string, string> = () => ({})): fc.Arbitrary<HostileProbe> =>
  fc
    .record({
      size: fc.constantFrom(1, 19, MAX_BATCH, MAX_BATCH + 1, MAX_BATCH + 2, 100),
      picks: fc.array(fc.nat(BATCH_MESSAGES.length - 1), { minLength: 100, maxLength: 100 }),
      twist: fc.constantFrom('none', 'none', 'nested', 'junk', 'no-batches-protocol'),
      junk: fc.constantFrom(...NOT_MESSAGES),
      at: fc.nat(99),
    })
    .map(({ size, picks, twist, junk, at }) => {
      const messages: unknown[] = picks.slice(0, size).map((pick) => BATCH_MESSAGES[pick]);
      if (twist === 'nested') messages[at % size] = [BATCH_MESSAGES[0]];
      if (twist === 'junk') messages[at % size] = junk;
      const answered = (twist === 'none' || twist === 'no-batches-protocol') && size <= MAX_BATCH;
      const hasRequest = messages.some(
        (message) => typeof message === 'object' && message !== null && 'method' in message && 'id' in message,
      );
      return {
        path: '/mcp',
        init: {
          method: 'POST',
          body: JSON.stringify(messages),
          headers: {
            'Content-Type': 'application/json',
            ...(twist === 'no-batches-protocol' ? { 'MCP-Protocol-Version': '2025-06-18' } : {}),
            ...headers(),
          },
        },
        allowed: answered ? [hasRequest ? 200 : 202] : [400],
        maxBodyBytes: BATCH_ANSWER_MAX_BYTES,
      };
    });

/**
 * The statuses the route table lets a route answer a GET that sends no validator: its success, `400` where it
 * takes a query, `404` where it has a path parameter, and the errors it declares (the push key's `503` on a
 * deployment without push; a page's refusals). Never `304` (nothing is sent to match) nor `500` (the fuzzers' data is whole).
 */
export function statusesOf(route: RouteSpec): number[] {
  const statuses: number[] = [route.ok.status ?? 200];
  // A route that answers its body with another status too (the health's 503 while a part is failing).
  if (route.ok.alsoAnswers !== undefined) statuses.push(route.ok.alsoAnswers.status);
  if (route.query !== undefined) statuses.push(400);
  if (route.pathParams !== undefined) statuses.push(404);
  return [
    ...statuses,
    ...[route.requestErrors, route.pageErrors].flatMap((errors) => Object.keys(errors ?? {}).map(Number)),
  ];
}

const TABLE: readonly RouteSpec[] = ROUTES;
const edgeReads = TABLE.filter((route) => route.served === 'edge' && route.methods.includes('GET'));

/** Every edge GET route without path parameters, from the table, with the statuses it may answer. */
export const QUERY_FUZZ_ROUTES: readonly (readonly [path: string, statuses: readonly number[]])[] = edgeReads
  .filter((route) => route.pathParams === undefined)
  .map((route) => [route.path, statusesOf(route)]);

/**
 * Each fixed prefix of the edge GET routes with a path parameter (`/api/status/`, `/badge/`, `/api/events/`), from
 * the table, with the statuses the routes under it may answer.
 */
export const SEGMENT_FUZZ_PREFIXES: readonly (readonly [prefix: string, statuses: readonly number[]])[] = [
  ...new Set(
    edgeReads
      .filter((route) => route.pathParams !== undefined)
      .map((route) => route.path.slice(0, route.path.indexOf('{'))),
  ),
].map((prefix) => [
  prefix,
  [...new Set(edgeReads.filter((route) => route.path.startsWith(prefix)).flatMap(statusesOf))].sort((a, b) => a - b),
]);
