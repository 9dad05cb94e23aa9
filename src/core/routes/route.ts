import type { z } from 'zod';
import type { CachePolicy, ContentTypeName } from './policy.ts';

/**
 * What one operation is, described once (a path with two methods of different meaning, such as the push
 * subscriptions' POST and DELETE, has an entry per method). The router, the CORS preflight, `405` with `Allow`, HEAD, the OpenAPI
 * paths, the endpoint listings and the worker-first asset list all follow from these entries (table.ts).
 */

export type Method = 'GET' | 'POST' | 'DELETE';

/**
 * What every path the table does not list answers: Astro's pages (prerendered or at the edge, the 404 page too)
 * and the build's other files only read (decisions.md, "The board on a phone": HTML pages answer GET and HEAD;
 * other methods get `405` with `Allow: GET, HEAD`).
 */
export const PAGE_METHODS: readonly string[] = ['GET', 'HEAD'];

/** A response body: a zod schema (JSON), or `text` for a document in its own format. */
export type BodySpec = z.ZodType | 'text';

export interface RouteSpec {
  /** Also the OpenAPI operationId and the key of the route's handler. */
  readonly id: string;
  /** An OpenAPI path template: `{name}` stands for one path segment or part of one. */
  readonly path: string;
  /** HEAD follows GET; OPTIONS is answered on every route. */
  readonly methods: readonly Method[];
  readonly tag: RouteTag;
  readonly summary: string;
  readonly description?: string;
  readonly query?: { readonly schema: z.ZodObject; readonly required?: readonly string[] };
  readonly pathParams?: Readonly<Record<string, z.ZodType>>;
  /** The successful answer: its status (200 unless said), media types and headers beyond CORS and caching. */
  readonly ok: {
    /** 201 and 200 both succeed for a write that creates or replaces (`alsoOk`). */
    readonly status?: 200 | 201 | 202 | 204 | 303 | 308;
    readonly alsoOk?: { readonly status: 200; readonly description: string };
    /** The same body under an error status: GET /api/health's 503 while the service is failing. */
    readonly alsoAnswers?: { readonly status: 503; readonly description: string };
    readonly description: string;
    readonly content: Partial<Record<ContentTypeName, BodySpec>>;
    readonly headers?: readonly ResponseHeaderName[];
  };
  readonly cache: CachePolicy;
  /** `edge`: the worker answers it (and runs before any static file of the same path); `static`: a built file. */
  readonly served: 'edge' | 'static';
  /** The built file that answers the route's default (unfiltered) request, when there is one. */
  readonly prerendered?: string;
  /** Whether the handler's ETag names the data (clock-only fields left out); every GET answered 200 has a validator of its bytes otherwise. */
  readonly conditional: boolean;
  /** Whether the path answers a CORS preflight (spec section 4 names the paths). */
  readonly preflight: boolean;
  /** Whether an unreadable data set makes it answer `500 internal_error`. */
  readonly needsData: boolean;
  /** Request headers a preflight allows, and response headers it exposes, beyond the CORS-safelisted ones. */
  readonly corsHeaders?: { readonly allow: readonly string[]; readonly expose: readonly string[] };
  /** JSON-RPC routes answer their HTTP errors with a JSON-RPC error object. */
  readonly jsonRpc?: true;
  /** A write's request body: its schema, the largest body accepted, and `form` for a form (else JSON). */
  readonly requestBody?: { readonly schema: z.ZodType; readonly maxBytes: number; readonly form?: true };
  /** A write's error statuses (the decided error body; 429 with Retry-After), with what each means. */
  readonly requestErrors?: Readonly<Partial<Record<400 | 401 | 415 | 429 | 503, string>>>;
  /** Statuses a page route answers with an HTML page that says why (the review page's refusals), with what each means. */
  readonly pageErrors?: Readonly<Partial<Record<400 | 403 | 404 | 409 | 413 | 415 | 503, string>>>;
  /** Statuses of a protocol's own (MCP's), with what each means. */
  readonly protocolStatuses?: Readonly<Partial<Record<number, string>>>;
  /** The `404` of an edge route whose path parameter its schema refuses (default: an unknown provider). */
  readonly notFound?: { readonly error: 'invalid_event'; readonly description: string };
  /** Another path for the same endpoint (the spec's aliases): listed beside it, not on its own. */
  readonly aliasOf?: string;
  /** Listed to people and agents (Markdown mirrors, llms.txt, the API page); `example` fills the path's names. */
  readonly listing?: { readonly example?: string };
}

export const ROUTE_TAGS = {
  board: 'The board and its status',
  timeline: 'Announcements as JSON and CSV',
  feeds: 'RSS, Atom and JSON Feed',
  calendars: 'iCalendar files',
  agents: 'Markdown mirrors, llms.txt and MCP for AI agents',
  data: 'The build’s data files and documents',
  badges: 'Embeddable status badges',
  push: 'Web Push: be told when a reset lands',
  chat: 'Discord and Slack: a channel told when a reset lands',
  websub: 'WebSub: feeds that push to your server',
  hooks: 'Signed webhooks (Standard Webhooks): JSON to your server',
  ntfy: 'ntfy: a phone or desktop told through an ntfy topic',
  telegram: 'Telegram: a bot that posts to a chat, group or channel',
  review: 'The review page: a reviewer confirms or rejects a draft the watcher found',
} as const;
export type RouteTag = keyof typeof ROUTE_TAGS;

export type ResponseHeaderName =
  | 'ETag'
  | 'ContentDispositionInline'
  | 'ContentDispositionAttachment'
  | 'Location'
  | 'Link';

/** The entries of one path (one, or one per method). */
export type PathRoutes = RouteSpec | readonly RouteSpec[];
const methodsOf = (routes: PathRoutes): Method[] => [
  ...new Set((Array.isArray(routes) ? routes : [routes]).flatMap((route: RouteSpec) => route.methods)),
];

/** The methods a path answers, in the order `Allow` lists them. */
export const allowedMethods = (routes: PathRoutes): string[] => {
  const methods = methodsOf(routes);
  return [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'];
};

/** `Access-Control-Allow-Methods` of a preflight: the path's own methods (spec: `GET, OPTIONS`). */
export const preflightMethods = (routes: PathRoutes): string[] => [...methodsOf(routes), 'OPTIONS'];

/**
 * What the edge app hands a route's handler: its path parameters and its query, each parsed with the entry's own
 * schemas (input.ts), so the types follow from the entry. A route without either gets an empty object.
 */
export interface RouteInput<R> {
  readonly params: PathParamsOf<R>;
  readonly query: QueryOf<R>;
}
type Nothing = Readonly<Record<never, never>>;
export type PathParamsOf<R> = R extends { readonly pathParams: infer P extends Readonly<Record<string, z.ZodType>> }
  ? { readonly [Name in keyof P]: z.output<P[Name]> }
  : Nothing;
export type QueryOf<R> = R extends { readonly query: { readonly schema: infer S extends z.ZodObject } }
  ? z.output<S>
  : Nothing;
