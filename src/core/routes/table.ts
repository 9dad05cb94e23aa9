import { z } from 'zod';
import { ENGLISH_LANGUAGE_NAMES } from '../i18n/filled-words.ts';
import { LANGUAGES, markdownEndpointId } from '../languages.ts';
import { OneProviderQuerySchema, IcsQuerySchema, TimelineCsvQuerySchema, TimelineQuerySchema } from '../api/query.ts';
import {
  EDGE_DATASET_PATH,
  EdgeDatasetFileSchema,
  HISTORY_INDEX_PATH,
  HistoryIndexSchema,
  PublishedEventsSchema,
} from '../dataset.ts';
import {
  CHAT_WEBHOOK_BODY_MAX_BYTES,
  ChatWebhookForgetSchema,
  ChatWebhookRequestSchema,
  ChatWebhookTopicsSchema,
} from '../chat/webhook-request.ts';
import { ProviderSchema } from '../enums.ts';
import { HOOK_BODY_MAX_BYTES, HookAcceptedSchema, HookForgetSchema, HookRequestSchema } from '../hooks/payload.ts';
import {
  PUSH_BODY_MAX_BYTES,
  PushKeySchema,
  SubscribeRequestSchema,
  SubscriptionTopicsSchema,
  UnsubscribeRequestSchema,
} from '../push/subscription.ts';
import { EventRecordSchema } from '../provenance.ts';
import {
  NTFY_ACTIVATION_PATH,
  NTFY_BODY_MAX_BYTES,
  NtfyActivationQuerySchema,
  NtfyForgetSchema,
  NtfyRequestSchema,
  NtfyTopicsSchema,
} from '../ntfy/ntfy.ts';
import { LEASE_SECONDS, WEBSUB_BODY_MAX_BYTES, WebSubRequestFormSchema } from '../websub/request.ts';
import { TELEGRAM_UPDATE_MAX_BYTES, TelegramUpdateSchema, TelegramWebhookAnswerSchema } from '../telegram/bot.ts';
import { REVIEW_FORM_MAX_BYTES, REVIEW_PAGE_ROUTE, ReviewFormSchema, ReviewQuerySchema } from '../review/form.ts';
import { ForecastResponseSchema, ForecastTrackRecordSchema } from '../forecast/schemas.ts';
import { FEED_FORMATS, type FeedFormat, JsonFeedSchema, WEBSUB_HUB_PATH } from '../render/feed-formats.ts';
import { HealthSchema } from '../health.ts';
import { DELAYED_AFTER_MINUTES, FAILING_AFTER_MINUTES, SourcesResponseSchema } from '../sources.ts';
import {
  EventIdSchema,
  JsonRpcResponseSchema,
  ProviderStatusSchema,
  StatusResponseSchema,
  TimelineResponseSchema,
} from '../schemas.ts';
import type { ContentTypeName } from './policy.ts';
import type { BodySpec, RouteSpec } from './route.ts';

/**
 * Every endpoint of the service, once. To add one: an entry here, its handler in a module of functions/api (edge
 * routes; CONTRIBUTING.md, "Adding a GET endpoint") or its page in src/pages (static ones), and its title in each
 * locale's `endpoints` (src/core/i18n).
 * The worker already runs first for every path (`assets.run_worker_first`, from `workerFirstPatterns()` in
 * match.ts), so a new route needs nothing in wrangler.jsonc.
 */

const provider = { provider: ProviderSchema };
const AnyJsonObject = z.looseObject({});

/** What every JSON write shares (push subscriptions, chat webhooks): never cached, answered at the edge, no data. */
const JSON_WRITE = {
  cache: 'noStore',
  served: 'edge',
  conditional: false,
  preflight: true,
  needsData: false,
  corsHeaders: { allow: ['Content-Type'], expose: [] },
} as const;
const NOT_JSON_BODY = 'the body is not `application/json`: `invalid_request`';

/** The push subscriptions' POST and DELETE: one path, one entry per method. */
const PUSH_WRITE = {
  ...JSON_WRITE,
  path: '/api/push/subscriptions',
  tag: 'push',
  requestErrors: {
    400: 'a bad body: `invalid_request` with `issues`, at most 20 and one saying how many more (types, providers, kinds, the outbound-address rules for the endpoint, keys that are not a P-256 point or a 16-byte secret, over 4 KiB)',
    415: NOT_JSON_BODY,
    429: 'more than 10 writes in a minute from this IPv4 address or IPv6 /64 (shared with every channel): `rate_limited`; see Retry-After',
    503: 'push is not configured on this deployment, or its database cannot be reached now: `push_unavailable`, see Retry-After; or a new subscription past push’s total cap: `push_full`',
  },
} as const;

/** ntfy's POST and DELETE (decisions.md, "More channels"): one path, one entry per method, as push's. */
const NTFY_WRITE = {
  ...JSON_WRITE,
  path: '/api/ntfy',
  tag: 'ntfy',
  requestErrors: {
    400: 'a bad body: `invalid_request` with `issues`, at most 20 and one saying how many more (types, providers, kinds, the outbound-address rules for the topic URL, a URL whose path is not one topic name, over 4 KiB; a server refusing the activation message: `topic_refused`)',
    415: NOT_JSON_BODY,
    429: 'more than 10 writes in a minute from this IPv4 address or IPv6 /64 (shared with every channel): `rate_limited`; see Retry-After',
    503: 'the delivery wing is not configured on this deployment, or its database cannot be reached now: `ntfy_unavailable`, see Retry-After; or a new topic past its total cap: `ntfy_full`',
  },
} as const;

/** ntfy's activation page: GET shows it, POST (its button) activates; a page, so answered with HTML. */
const NTFY_ACTIVATION = {
  path: NTFY_ACTIVATION_PATH,
  tag: 'ntfy',
  query: { schema: NtfyActivationQuerySchema, required: ['topic', 'token'] },
  cache: 'noStore',
  served: 'edge',
  conditional: false,
  preflight: false,
  needsData: false,
  requestErrors: {
    503: 'the delivery wing is not configured on this deployment, or its database cannot be reached now: `ntfy_unavailable`, see Retry-After',
  },
} as const;

/** The chat webhooks' POST and DELETE (decisions.md, "Chat webhooks"): one path, one entry per method, as push's. */
const CHAT_WEBHOOK_WRITE = {
  ...JSON_WRITE,
  path: '/api/webhooks',
  tag: 'chat',
  requestErrors: {
    400: 'a bad body: `invalid_request` with `issues`, at most 20 and one saying how many more (types, providers, kinds, the outbound-address rules for the URL, a URL that is not a Discord or Slack webhook, over 4 KiB)',
    415: NOT_JSON_BODY,
    429: 'more than 10 writes in a minute from this IPv4 address or IPv6 /64 (shared with every channel): `rate_limited`; see Retry-After',
    503: 'the delivery wing is not configured on this deployment, or its database cannot be reached now: `webhooks_unavailable`, see Retry-After; or a new webhook past its platform’s total cap: `discord_full` or `slack_full`',
  },
} as const;

/** The signed webhooks' POST and DELETE (decisions.md, "More channels"): one path, one entry per method. */
const HOOK_WRITE = {
  ...JSON_WRITE,
  path: '/api/hooks',
  tag: 'hooks',
  requestErrors: {
    400: 'a bad body: `invalid_request` with `issues`, at most 20 and one saying how many more (types, providers, kinds, the outbound-address rules for the URL, a URL already stored: `hook_exists`, over 4 KiB)',
    415: NOT_JSON_BODY,
    429: 'more than 10 writes in a minute from this IPv4 address or IPv6 /64 (shared with every channel), or (POST) more than 5 verification requests: `rate_limited`; see Retry-After',
    503: 'the delivery wing is not configured on this deployment, or its database cannot be reached now: `webhooks_unavailable`, see Retry-After; or a new hook past its total cap: `hooks_full`',
  },
} as const;

/**
 * The review page of a draft (decisions.md, "Confirmed within a minute"; docs/watch.md, "The review page"): GET shows
 * it and changes nothing, POST (its form) decides. A page: its refusals are pages that say why.
 */
const REVIEW_PAGE = {
  path: REVIEW_PAGE_ROUTE,
  tag: 'review',
  pathParams: { id: EventIdSchema },
  cache: 'noStore',
  served: 'edge',
  conditional: false,
  preflight: false,
  needsData: false,
  notFound: { error: 'invalid_event', description: 'not an event id: `invalid_event`' },
} as const;
const REVIEW_REFUSALS = {
  403: 'the token is wrong for this draft, expired (24 h), or used (the draft was decided already); or (POST) the form came from another site (`Origin`, `Sec-Fetch-Site`)',
  404: 'no draft has this id, or this deployment has no `REVIEW_SIGNING_KEY`',
  503: 'the state database is not bound or cannot be reached now',
} as const;

/**
 * The feeds (spec 4.4): the same items in three formats, each a built file per selection that the edge picks,
 * so one description and an entry per format. Only /feed.xml answers the spec's preflight (section 4).
 */
const feedRoute = <const Id extends string>(feed: FeedDescription<Id>) =>
  ({
    id: feed.id,
    path: FEED_FORMATS[feed.format].path,
    methods: ['GET'],
    tag: 'feeds',
    summary: feed.summary,
    query: { schema: OneProviderQuerySchema },
    ok: { description: feed.body, content: feed.content, headers: ['Link'] },
    cache: 'feed',
    served: 'edge',
    prerendered: FEED_FORMATS[feed.format].path,
    conditional: false,
    preflight: feed.preflight ?? false,
    needsData: true,
    // The WebSub hub and the feed's own address (decisions.md, "WebSub"), readable by a page's script too.
    corsHeaders: { allow: [], expose: ['Link'] },
    listing: {},
  }) as const;
interface FeedDescription<Id extends string> {
  readonly id: Id;
  readonly format: FeedFormat;
  readonly summary: string;
  /** What the body is, in a few words. */
  readonly body: string;
  readonly content: Partial<Record<ContentTypeName, BodySpec>>;
  readonly preflight?: true;
}

/** MCP's two paths answer alike. */
const MCP_ROUTE = {
  methods: ['POST'],
  tag: 'agents',
  description:
    'With `Accept: application/json, text/event-stream` the answer is server-sent events; without it, the same JSON-RPC message as `application/json`. Tools: get_status, get_timeline, get_next_estimate, get_forecast.',
  ok: { description: 'the JSON-RPC response', content: { json: JsonRpcResponseSchema, eventStream: 'text' } },
  cache: 'noStore',
  served: 'edge',
  conditional: false,
  preflight: true,
  needsData: false,
  jsonRpc: true,
  corsHeaders: {
    allow: ['Content-Type', 'Accept', 'Mcp-Protocol-Version', 'Mcp-Session-Id', 'Last-Event-ID'],
    expose: ['Mcp-Session-Id', 'Retry-After'],
  },
  protocolStatuses: {
    202: 'a notification or a response, accepted; no body',
    400: 'not a JSON-RPC message (a JSON-RPC error in the body)',
    413: 'the body is over 64 KiB',
    415: 'the body is not `application/json`',
    429: 'more than 60 requests in a minute from this IP, each message of a batch counting as one; see Retry-After',
  },
} as const;

/**
 * The board as Markdown in every language of the site (spec 4.6 names `/index.md` and `/zh/index.md`; each other
 * language's mirror is the same output under its prefix), answered by the edge.
 */
const MARKDOWN_ROUTES = LANGUAGES.map((language) => ({
  id: markdownEndpointId(language.code),
  path: language.prefix === '' ? '/index.md' : `/${language.prefix}/index.md`,
  methods: ['GET'] as const,
  tag: 'agents' as const,
  summary: `The board as Markdown (${ENGLISH_LANGUAGE_NAMES[language.code]})`,
  ok: { description: 'regenerated per request', content: { markdown: 'text' as const } },
  cache: 'markdown' as const,
  served: 'edge' as const,
  conditional: false,
  preflight: false,
  needsData: true,
  listing: {},
}));

export const ROUTES = [
  {
    id: 'getStatus',
    path: '/api/status',
    methods: ['GET'],
    tag: 'board',
    summary: 'The board: status, last reset, cadence estimate and statistics per provider',
    ok: { description: 'the board at request time', content: { json: StatusResponseSchema }, headers: ['ETag'] },
    cache: 'api',
    served: 'edge',
    conditional: true,
    preflight: true,
    needsData: true,
    listing: {},
  },
  {
    id: 'getProviderStatus',
    path: '/api/status/{provider}',
    methods: ['GET'],
    tag: 'board',
    summary: 'One provider’s status',
    pathParams: provider,
    ok: {
      description: 'the provider’s board entry at request time',
      content: { json: ProviderStatusSchema },
      headers: ['ETag'],
    },
    cache: 'api',
    served: 'edge',
    conditional: true,
    preflight: false,
    needsData: true,
    listing: { example: '/api/status/provider_a' },
  },
  {
    id: 'getStatusText',
    path: '/api/status.txt',
    methods: ['GET'],
    tag: 'board',
    summary: 'The board as plain text: one line per provider, for status bars and shell prompts',
    description:
      'Per provider, in the enumeration’s order: the provider id, the status word, `daysSince` with one decimal and `nextEstimate`, separated by tabs, `-` for a null, each line ended by `\\n`. The ETag is the one /api/status (or, with `provider`, /api/status/{provider}) has for the same data.',
    query: { schema: OneProviderQuerySchema },
    ok: { description: 'the board at request time', content: { text: 'text' }, headers: ['ETag'] },
    cache: 'api',
    served: 'edge',
    conditional: true,
    preflight: true,
    needsData: true,
    listing: { example: '/api/status.txt?provider=provider_a' },
  },
  {
    id: 'getTimeline',
    path: '/api/timeline',
    methods: ['GET'],
    tag: 'timeline',
    summary: 'Announcements, newest first',
    query: { schema: TimelineQuerySchema },
    ok: {
      description: 'with format=json (the default): a TimelineResponse; with format=csv: as /api/timeline.csv',
      content: { json: TimelineResponseSchema, csv: 'text' },
      headers: ['ETag'],
    },
    cache: 'api',
    served: 'edge',
    prerendered: '/api/timeline',
    conditional: true,
    preflight: true,
    needsData: true,
    listing: {},
  },
  {
    id: 'getTimelineCsv',
    path: '/api/timeline.csv',
    methods: ['GET'],
    tag: 'timeline',
    summary: 'Announcements as CSV (columns id, date, provider, kind, scope, summary, source_url, page_url)',
    query: { schema: TimelineCsvQuerySchema },
    ok: {
      description: 'RFC 4180 CSV, header first, newest first, CRLF after every row',
      content: { csv: 'text' },
      headers: ['ContentDispositionInline'],
    },
    cache: 'api',
    served: 'edge',
    prerendered: '/api/timeline.csv',
    conditional: false,
    preflight: true,
    needsData: true,
    listing: {},
  },
  feedRoute({
    id: 'getFeedRss',
    format: 'rss',
    summary: 'RSS 2.0 feed of the latest 100 announcements (spec 4.4)',
    body: 'RSS 2.0',
    content: { rss: 'text' },
    preflight: true,
  }),
  feedRoute({
    id: 'getFeedAtom',
    format: 'atom',
    summary: 'Atom 1.0 feed, the same items as /feed.xml',
    body: 'Atom 1.0',
    content: { atom: 'text' },
  }),
  feedRoute({
    id: 'getFeedJson',
    format: 'json',
    summary: 'JSON Feed 1.1, the same items as /feed.xml',
    body: 'JSON Feed 1.1',
    content: { jsonFeed: JsonFeedSchema },
  }),
  {
    id: 'redirectFeed',
    path: '/api/feed',
    aliasOf: 'getFeedRss',
    methods: ['GET'],
    tag: 'feeds',
    summary: 'Alias of /feed.xml',
    query: { schema: OneProviderQuerySchema },
    ok: {
      status: 308,
      description: 'permanent redirect to /feed.xml, with the query’s provider',
      content: {},
      headers: ['Location'],
    },
    cache: 'feed',
    served: 'edge',
    conditional: false,
    preflight: false,
    needsData: false,
  },
  {
    id: 'getWindowCalendar',
    path: '/api/ics',
    methods: ['GET'],
    tag: 'calendars',
    summary: 'Calendar (RFC 5545) with a reminder for each of your own reset windows',
    query: { schema: IcsQuerySchema, required: ['provider'] },
    ok: {
      description: 'one VEVENT per window passed in',
      content: { calendar: 'text' },
      headers: ['ContentDispositionAttachment'],
    },
    cache: 'noStore',
    served: 'edge',
    conditional: false,
    preflight: true,
    needsData: false,
    listing: { example: '/api/ics?provider=provider_a&resetAt=2026-11-21T18:30:00%2B08:00' },
  },
  {
    id: 'getAnnouncementCalendar',
    path: '/calendar.ics',
    methods: ['GET'],
    tag: 'calendars',
    summary: 'The newest 1,000 announcements and each provider’s estimate, to subscribe to',
    description:
      'The announcements are the build’s; the estimates are computed at request time, and an estimate whose time has come is left out (no estimate event ends before the calendar is served). Each estimate says it is a cadence estimate, not a vendor schedule.',
    query: { schema: OneProviderQuerySchema },
    ok: { description: 'RFC 5545', content: { calendar: 'text' } },
    cache: 'calendar',
    served: 'edge',
    conditional: false,
    preflight: false,
    needsData: true,
    listing: {},
  },
  {
    id: 'getProviderCalendar',
    path: '/calendar/{provider}.ics',
    methods: ['GET'],
    tag: 'calendars',
    summary: 'One provider’s subscribable calendar',
    description: 'As /calendar.ics?provider=: the provider’s announcements, and its estimate while its time is ahead.',
    pathParams: provider,
    ok: { description: 'RFC 5545', content: { calendar: 'text' } },
    cache: 'calendar',
    served: 'edge',
    conditional: false,
    preflight: false,
    needsData: true,
  },
  ...MARKDOWN_ROUTES,
  {
    ...MCP_ROUTE,
    id: 'postMcp',
    path: '/mcp',
    summary: 'Model Context Protocol over Streamable HTTP (stateless)',
    listing: {},
  },
  { ...MCP_ROUTE, id: 'postMcpAlias', path: '/api/mcp', aliasOf: 'postMcp', summary: 'Alias of /mcp' },
  {
    id: 'getMcpServerCard',
    path: '/.well-known/mcp.json',
    methods: ['GET'],
    tag: 'agents',
    summary: 'The MCP server card: tools, resources, prompts and the transport URL',
    ok: { description: 'the server card', content: { json: AnyJsonObject } },
    cache: 'document',
    served: 'static',
    conditional: false,
    preflight: false,
    needsData: false,
    listing: {},
  },
  {
    id: 'getLlmsTxt',
    path: '/llms.txt',
    methods: ['GET'],
    tag: 'agents',
    summary: 'Where language models find the Markdown mirrors, this document and MCP',
    ok: { description: 'plain text', content: { text: 'text' } },
    cache: 'document',
    served: 'static',
    conditional: false,
    preflight: false,
    needsData: false,
    listing: {},
  },
  {
    id: 'getOpenApi',
    path: '/openapi.json',
    methods: ['GET'],
    tag: 'data',
    summary: 'This document',
    ok: { description: 'OpenAPI 3.1.0', content: { json: AnyJsonObject } },
    cache: 'document',
    served: 'static',
    conditional: false,
    preflight: false,
    needsData: false,
    listing: {},
  },
  {
    id: 'getBadgeSvg',
    path: '/badge/{provider}.svg',
    methods: ['GET'],
    tag: 'badges',
    summary: 'An embeddable status badge',
    pathParams: provider,
    ok: { description: 'SVG image', content: { svg: 'text' } },
    cache: 'badge',
    served: 'edge',
    conditional: false,
    preflight: false,
    needsData: true,
    listing: { example: '/badge/provider_a.svg' },
  },
  {
    id: 'getBadgeJson',
    path: '/badge/{provider}.json',
    methods: ['GET'],
    tag: 'badges',
    summary: 'The status badge as a shields.io endpoint',
    pathParams: provider,
    ok: { description: 'shields.io endpoint schema', content: { json: AnyJsonObject } },
    cache: 'api',
    served: 'edge',
    conditional: false,
    preflight: false,
    needsData: true,
  },
  {
    id: 'getHistoryIndex',
    path: HISTORY_INDEX_PATH,
    methods: ['GET'],
    tag: 'data',
    summary: 'The whole history: one file per provider and year, listed',
    ok: { description: 'the files', content: { json: HistoryIndexSchema } },
    cache: 'data',
    served: 'static',
    conditional: false,
    preflight: false,
    needsData: false,
    listing: {},
  },
  {
    id: 'getHistoryFile',
    path: '/data/events/{provider}/{year}.json',
    methods: ['GET'],
    tag: 'data',
    summary: 'One provider’s published events of one year, newest first',
    pathParams: { ...provider, year: z.int() },
    ok: { description: 'the events', content: { json: PublishedEventsSchema } },
    cache: 'data',
    served: 'static',
    conditional: false,
    preflight: false,
    needsData: false,
  },
  {
    id: 'getEdgeDataset',
    path: EDGE_DATASET_PATH,
    methods: ['GET'],
    tag: 'data',
    summary: 'The edge data set: per provider its summary and newest 500 events, stamped with the build',
    ok: { description: 'the data set', content: { json: EdgeDatasetFileSchema } },
    cache: 'data',
    served: 'static',
    conditional: false,
    preflight: false,
    needsData: false,
  },
  // Provenance and freshness (docs/provenance.md).
  {
    id: 'getEvent',
    path: '/api/events/{id}',
    methods: ['GET'],
    tag: 'timeline',
    summary: 'One published event with its provenance: when it was recorded and verified, and in which commits',
    pathParams: { id: EventIdSchema },
    ok: {
      description: 'the event, its permanent page and its provenance from git (null fields outside a git checkout)',
      content: { json: EventRecordSchema },
      headers: ['ETag'],
    },
    cache: 'api',
    served: 'edge',
    conditional: true,
    preflight: false,
    needsData: true,
    notFound: {
      error: 'invalid_event',
      description: 'no published event has this id, or it is not an event id: `invalid_event`',
    },
    listing: {},
  },
  {
    id: 'getSources',
    path: '/api/sources',
    methods: ['GET'],
    tag: 'board',
    summary: 'How current the board is: the watched sources as the last watch run found them',
    ok: {
      description: `the last watch run's report; state \`delayed\` when it is older than ${DELAYED_AFTER_MINUTES} minutes, \`failing\` when a source's polls have failed for over ${FAILING_AFTER_MINUTES} minutes, \`unknown\` before the first or when the state database cannot be read or is not migrated (GET /api/health says why)`,
      content: { json: SourcesResponseSchema },
      headers: ['ETag'],
    },
    cache: 'api',
    served: 'edge',
    conditional: true,
    preflight: false,
    needsData: false,
    listing: {},
  },
  // The service's health (decisions.md, "Operable"; docs/health.md): per part, for its operators and uptime checks.
  {
    id: 'getHealth',
    path: '/api/health',
    methods: ['GET'],
    tag: 'board',
    summary:
      "The service's health, part by part: build, data files, database, cron, watcher, delivery, review messages, journal, channel caps",
    description:
      'Computed at request time from what the service records; never a secret or an address. `status` is `failing` when any part is failing (HTTP 503), else `degraded` when any part is (HTTP 200), else `ok`. Each part has a `state` (`ok`, `degraded`, `failing`, or `off` for a part this deployment does not run) and a `reason` when it is not ok.',
    ok: {
      description: 'the service is ok or degraded',
      content: { json: HealthSchema },
      alsoAnswers: { status: 503, description: 'the service is failing: the same body, a part says why' },
    },
    cache: 'noStore',
    served: 'edge',
    conditional: false,
    preflight: false,
    needsData: false,
    listing: {},
  },
  // The forecast (decisions.md, "Forecast"): the chances at request time, and how they have held (built).
  {
    id: 'getForecast',
    path: '/api/forecast',
    methods: ['GET'],
    tag: 'board',
    summary: 'The chance of a reset within 1, 3 and 7 days per provider, from the recent gaps between resets',
    description:
      'A pattern in past gaps, not a vendor plan: P(h) is the share of the last 20 gaps longer than the time since the last reset that ended within h more days. Null with fewer than 5 gaps (`insufficient`), when no gap is longer (`beyond_history`), or when a reset is announced or teased for a later time.',
    ok: { description: 'the forecast at request time', content: { json: ForecastResponseSchema }, headers: ['ETag'] },
    cache: 'api',
    served: 'edge',
    conditional: true,
    preflight: true,
    needsData: true,
    listing: {},
  },
  {
    id: 'getForecastTrackRecord',
    path: '/api/forecast/track-record',
    methods: ['GET'],
    tag: 'board',
    summary: 'How the forecast has held: Brier scores beside the base rate’s, and a reliability table per provider',
    description:
      'The rule replayed every 24 h through the history, each time on what was known then; P(1d) and P(7d) scored against what happened. Built with the events.',
    ok: {
      description: 'the track record as of the build',
      content: { json: ForecastTrackRecordSchema },
      headers: ['ETag'],
    },
    cache: 'api',
    served: 'edge',
    prerendered: '/api/forecast/track-record',
    conditional: true,
    preflight: true,
    needsData: true,
    listing: {},
  },
  // The MCP server card where the server-card draft looks for it too (issue 14): the same body as /.well-known/mcp.json.
  {
    id: 'getMcpServerCardAlias',
    path: '/.well-known/mcp/server-card.json',
    methods: ['GET'],
    tag: 'agents',
    summary: 'Alias of /.well-known/mcp.json',
    aliasOf: 'getMcpServerCard',
    ok: { description: 'the server card', content: { json: AnyJsonObject } },
    cache: 'document',
    served: 'static',
    conditional: false,
    preflight: false,
    needsData: false,
  },
  // Web Push (decisions.md, "Push notifications"; docs/delivery.md): the key, and the service's one write path.
  {
    id: 'getPushKey',
    path: '/api/push/key',
    methods: ['GET'],
    tag: 'push',
    summary: 'The VAPID public key a browser subscribes with (applicationServerKey)',
    ok: { description: 'the public key', content: { json: PushKeySchema } },
    cache: 'api',
    served: 'edge',
    conditional: false,
    preflight: true,
    needsData: false,
    requestErrors: { 503: 'push is not configured on this deployment: `push_unavailable`' },
  },
  {
    ...PUSH_WRITE,
    id: 'postPushSubscription',
    methods: ['POST'],
    summary: 'Subscribe a browser push endpoint to providers and kinds of events, in a language',
    requestBody: { schema: SubscribeRequestSchema, maxBytes: PUSH_BODY_MAX_BYTES },
    ok: {
      status: 201,
      description: 'a new endpoint: the topics and language stored',
      content: { json: SubscriptionTopicsSchema },
      alsoOk: { status: 200, description: 'a known endpoint: its topics and language replaced' },
    },
  },
  {
    ...PUSH_WRITE,
    id: 'deletePushSubscription',
    methods: ['DELETE'],
    summary: 'Forget a browser push endpoint (also one never seen)',
    requestBody: { schema: UnsubscribeRequestSchema, maxBytes: PUSH_BODY_MAX_BYTES },
    ok: { status: 204, description: 'forgotten', content: {} },
  },
  // Chat webhooks (decisions.md, "Chat webhooks"; docs/delivery.md): a Discord or Slack channel told of new events.
  {
    ...CHAT_WEBHOOK_WRITE,
    id: 'postChatWebhook',
    methods: ['POST'],
    summary: 'Send new events of chosen providers and kinds to a Discord or Slack channel, in a language',
    requestBody: { schema: ChatWebhookRequestSchema, maxBytes: CHAT_WEBHOOK_BODY_MAX_BYTES },
    ok: {
      status: 201,
      description: 'a new webhook: its platform, and the topics and language stored',
      content: { json: ChatWebhookTopicsSchema },
      alsoOk: { status: 200, description: 'a known webhook: its topics and language replaced' },
    },
    listing: {},
  },
  {
    ...CHAT_WEBHOOK_WRITE,
    id: 'deleteChatWebhook',
    methods: ['DELETE'],
    summary: 'Stop sending to a Discord or Slack webhook (also one never seen)',
    requestBody: { schema: ChatWebhookForgetSchema, maxBytes: CHAT_WEBHOOK_BODY_MAX_BYTES },
    ok: { status: 204, description: 'forgotten', content: {} },
    listing: {},
  },
  // ntfy (decisions.md, "More channels"; docs/delivery.md, "ntfy"): a topic told of new events, once activated.
  {
    ...NTFY_WRITE,
    id: 'postNtfy',
    methods: ['POST'],
    summary: 'Send new events of chosen providers and kinds to an ntfy topic, in a language, once activated',
    description:
      'The topic is sent one message at once: an activation link. Nothing else is sent to it until that link is opened and its button pressed (a POST). Writing a known topic replaces its choices and asks for activation again.',
    requestBody: { schema: NtfyRequestSchema, maxBytes: NTFY_BODY_MAX_BYTES },
    ok: {
      status: 201,
      description: 'a new topic: the topics and language stored, waiting for activation',
      content: { json: NtfyTopicsSchema },
      alsoOk: { status: 200, description: 'a known topic: its topics and language replaced, waiting for activation' },
    },
  },
  {
    ...NTFY_WRITE,
    id: 'deleteNtfy',
    methods: ['DELETE'],
    summary: 'Stop sending to an ntfy topic (also one never seen)',
    requestBody: { schema: NtfyForgetSchema, maxBytes: NTFY_BODY_MAX_BYTES },
    ok: { status: 204, description: 'forgotten', content: {} },
  },
  {
    ...NTFY_ACTIVATION,
    id: 'getNtfyActivation',
    methods: ['GET'],
    summary: 'The activation page of an ntfy topic: what will be sent, and a button (changes nothing)',
    ok: { description: 'the page; 404 for a wrong token or a topic not stored', content: { html: 'text' } },
  },
  {
    ...NTFY_ACTIVATION,
    id: 'postNtfyActivation',
    methods: ['POST'],
    summary: 'Activate an ntfy topic: its events are sent from now on',
    ok: { description: 'activated; 404 for a wrong token or a topic not stored', content: { html: 'text' } },
  },
  // WebSub (decisions.md, "WebSub"; docs/delivery.md): the hub every feed advertises. A server's form POST, so it is
  // answered here, before Astro (which refuses a form POST without a same-origin Origin).
  {
    id: 'postWebSub',
    path: WEBSUB_HUB_PATH,
    methods: ['POST'],
    tag: 'websub',
    summary: 'WebSub hub: subscribe a callback to a feed, or unsubscribe it',
    description: `WebSub (W3C Recommendation). The topic is a feed's own address (its \`rel="self"\`). After the 202 the hub verifies the intent with a GET to the callback carrying \`hub.mode\`, \`hub.topic\`, \`hub.challenge\` and, to subscribe, \`hub.lease_seconds\`; only an answer 2xx whose body is exactly the challenge makes (or ends) the subscription. While it lasts (the lease, at most ${LEASE_SECONDS.max} s), each change of the feed (an event it lists published, or a reset it lists taking effect) is POSTed to the callback: the whole feed, its Content-Type and \`Link\` headers, and \`X-Hub-Signature: sha256=<hex HMAC-SHA256 of the body>\` when a secret was given.`,
    requestBody: { schema: WebSubRequestFormSchema, maxBytes: WEBSUB_BODY_MAX_BYTES, form: true },
    ok: { status: 202, description: 'accepted: the hub now verifies the intent with the callback', content: {} },
    cache: 'noStore',
    served: 'edge',
    conditional: false,
    preflight: false,
    needsData: false,
    requestErrors: {
      400: `a bad form: \`invalid_request\` with \`issues\` (a missing or repeated field, a topic that is none of the feeds, a callback the outbound-address rules refuse, a lease out of 1–${LEASE_SECONDS.max}, a secret over 200 bytes, a body over ${WEBSUB_BODY_MAX_BYTES} bytes)`,
      415: 'the body is not `application/x-www-form-urlencoded`: `invalid_request`',
      429: 'more than 10 writes in a minute from this IPv4 address or IPv6 /64 (shared with every channel), or more than 5 verification requests: `rate_limited`; see Retry-After',
      503: 'WebSub is not configured on this deployment, or its database cannot be reached now: `websub_unavailable`, see Retry-After; or a new subscription past its total cap: `websub_full`',
    },
    listing: {},
  },
  // Signed webhooks (decisions.md, "More channels"; docs/delivery.md, "Signed webhooks"): Standard Webhooks to any URL.
  {
    ...HOOK_WRITE,
    id: 'postHook',
    methods: ['POST'],
    summary: 'Send new events of chosen providers and kinds to your URL as signed JSON (Standard Webhooks)',
    description:
      'After the 202 the service GETs the URL with `hub.mode=subscribe`, `hub.topic={base_url}/api/hooks` and `hub.challenge`; only an answer 2xx whose body is exactly the challenge stores the hook. Then each new event (`event.published`) and each reset taking effect later (`reset.effective`) is POSTed as `{"type","timestamp","data"}` with `webhook-id` (the same on every retry), `webhook-timestamp` and `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>" keyed with the secret>`. The secret is answered this once.',
    requestBody: { schema: HookRequestSchema, maxBytes: HOOK_BODY_MAX_BYTES },
    ok: {
      status: 202,
      description:
        'accepted: the URL, the topics and the secret (`whsec_…`, answered only now); the verification follows',
      content: { json: HookAcceptedSchema },
    },
    listing: {},
  },
  {
    ...HOOK_WRITE,
    id: 'deleteHook',
    methods: ['DELETE'],
    summary: 'Stop sending to your URL: its URL and secret',
    description:
      'An unknown URL and a wrong secret are the same `404 {"error":"hook_not_found"}`, so that the answer never tells whether a URL is stored.',
    requestBody: { schema: HookForgetSchema, maxBytes: HOOK_BODY_MAX_BYTES },
    ok: { status: 204, description: 'forgotten', content: {} },
    listing: {},
  },
  // Telegram (decisions.md, "More channels"; docs/delivery.md, "Telegram"): the bot's webhook, called by Telegram.
  {
    ...JSON_WRITE,
    id: 'postTelegramUpdate',
    path: '/telegram',
    methods: ['POST'],
    tag: 'telegram',
    summary: 'The Telegram bot’s webhook: an Update from Telegram (commands /start, /subscribe, /unsubscribe, /status)',
    description: `Called by Telegram (\`setWebhook\` with a \`secret_token\`), with \`X-Telegram-Bot-Api-Secret-Token\`. Read: \`message\` or \`channel_post\` with its \`chat.id\`, \`text\` (a command, also \`/command@bot\` in groups) and \`from.language_code\` (Chinese for \`zh…\`, else English). \`/subscribe <providers> [kinds]\` makes the chat a subscriber (one per chat; its choices replaced by the next), \`/unsubscribe\` ends it.`,
    requestBody: { schema: TelegramUpdateSchema, maxBytes: TELEGRAM_UPDATE_MAX_BYTES },
    ok: {
      description:
        'a command’s reply, as the Bot API call `sendMessage` Telegram makes for the bot; `{}` for any other update',
      content: { json: TelegramWebhookAnswerSchema },
    },
    requestErrors: {
      400: `a body that is not an Update: \`invalid_request\` with \`issues\` (over ${TELEGRAM_UPDATE_MAX_BYTES} bytes, not JSON, no integer \`update_id\`, a message without its chat)`,
      401: 'no `X-Telegram-Bot-Api-Secret-Token`, or not the deployment’s secret (checked first, also when no bot is configured): `unauthorized`',
      415: NOT_JSON_BODY,
      429: 'more than 10 writes in a minute from this IPv4 address or IPv6 /64 (shared with every channel): `rate_limited`; see Retry-After',
      503: 'the bot or the delivery wing is not configured on this deployment, or its database cannot be reached now: `telegram_unavailable`, see Retry-After; or a new chat past the channel’s total cap: `telegram_full`',
    },
  },
  // The review page (decisions.md, "Confirmed within a minute"; docs/watch.md, "The review page").
  {
    ...REVIEW_PAGE,
    id: 'getReviewPage',
    methods: ['GET'],
    summary: 'The review page of a draft: the original post, every field, and Confirm / Reject (changes nothing)',
    query: { schema: ReviewQuerySchema, required: ['t'] },
    ok: {
      description: 'the draft, or what became of it (`Cache-Control: no-store`, `X-Robots-Tag: noindex`)',
      content: { html: 'text' },
    },
    pageErrors: REVIEW_REFUSALS,
  },
  {
    ...REVIEW_PAGE,
    id: 'postReviewPage',
    methods: ['POST'],
    summary: 'Confirm (with edited kind, scope, effectiveAt), reject, or withdraw a draft, from its review page',
    description:
      'A form of the review page itself: refused when `Origin` names another origin or `Sec-Fetch-Site` is `cross-site`. A confirmed event enters the journal and is published at once.',
    requestBody: { schema: ReviewFormSchema, maxBytes: REVIEW_FORM_MAX_BYTES, form: true },
    ok: {
      status: 303,
      description: 'decided: see the review page, which shows the outcome',
      content: {},
      headers: ['Location'],
    },
    pageErrors: {
      ...REVIEW_REFUSALS,
      400: 'the edited event is not valid (the page again, the form kept, each field’s issue), or an unknown action',
      409: 'confirm: a reset that took effect before the provider’s latest one (a pull request’s, where the build recounts the history); withdraw: the event is not live in the journal any more, or its file is in git (corrections go through a pull request)',
      413: `the body is over ${REVIEW_FORM_MAX_BYTES} bytes`,
      415: 'the body is not `application/x-www-form-urlencoded`',
    },
  },
] as const satisfies readonly RouteSpec[];

type Route = (typeof ROUTES)[number];
export type RouteId = Route['id'];
/** The routes the worker answers itself, each with a handler typed by its entry (functions/handlers.ts). */
export type EdgeRoute = Extract<Route, { served: 'edge' }>;
export type EdgeRouteId = EdgeRoute['id'];
export type EdgeRouteOf<Id extends EdgeRouteId> = Extract<EdgeRoute, { id: Id }>;
export type ListedRouteId = Extract<Route, { listing: object }>['id'];

export const routeById = (id: RouteId): RouteSpec => ROUTES.find((route) => route.id === id)!;
