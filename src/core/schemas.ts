import { MAX_LISTED_ISSUES } from './api/issue-cap.ts';
import { MEDIAN_BASIS_RESETS } from './cadence.ts';
import { z } from 'zod';
import { BoardStatusSchema, EventKindSchema, ProviderSchema } from './enums.ts';
import { type TextKind, unsafeCharacterProblem } from './content/unsafe-characters.ts';
import { lazySchema } from './lazy-schema.ts';

/**
 * The spec's resources (section 2) as zod schemas: the one source of the TypeScript types, of content
 * validation and of the machine-readable descriptions (OpenAPI, MCP output schemas). The answers MCP's tools give
 * are made as the module loads, so that MCP's first request does not pay for them; JSON-RPC's response, which only
 * the OpenAPI document reads, on first use (src/core/lazy-schema.ts).
 */

export const SUMMARY_MAX_CHARACTERS = 280;

/** ISO 8601 UTC with milliseconds, e.g. `2026-03-04T05:06:07.089Z`; impossible dates are rejected. */
export const UtcTimestampSchema = z.iso
  .datetime({ precision: 3, error: 'must be an ISO 8601 UTC time with milliseconds, like 2026-03-04T05:06:07.089Z' })
  .meta({ id: 'UtcTimestamp', format: 'date-time', example: '2026-03-04T05:06:07.089Z' });

/** File names, URL anchors and calendar UIDs are built from ids, so they stay in a safe alphabet. */
export const EventIdSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/,
    'must be 1 to 128 letters, digits, "_" or "-", starting with a letter or digit',
  );

export const ScopeSchema = z
  .string()
  .regex(
    /^(global|plan:[a-z0-9][a-z0-9_.-]{0,63})$/,
    'must be "global" or "plan:<plan_name>" (lower-case letters, digits, "_", "." or "-")',
  )
  .meta({ examples: ['global', 'plan:pro'] });

const HOST_NAME = /^([a-z0-9-]+\.)+[a-z0-9-]+$/i;
/** Whitespace and control characters, which the URL parser drops or encodes without a word. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: this pattern exists to find control characters
const SPACE_OR_CONTROL = /[\s\u0000-\u001f\u007f-\u009f]/u;

/**
 * An absolute https URL with a host name, as written. One rule with one message: `z.url()` checks the protocol
 * and the host name separately and reports each that fails, so `javascript:alert(1)` (no https, no host) was
 * reported twice in the same words. `z.url()` also trims the value and drops tabs and line breaks inside it
 * before it checks, so a file could read differently from what is published; here the text is the URL.
 */
export const isHttpsPostUrl = (text: string): boolean => {
  if (!/^https:\/\//i.test(text) || SPACE_OR_CONTROL.test(text)) return false;
  const url = URL.parse(text);
  return url !== null && url.protocol === 'https:' && HOST_NAME.test(url.hostname);
};

/**
 * A text field's characters (src/core/content/unsafe-characters.ts): one issue naming the first refused character,
 * with the fix the content validator prints beside it (`params.fix`). True when there was nothing to refuse.
 */
function checkCharacters(kind: TextKind, text: string, context: z.RefinementCtx): boolean {
  const problem = unsafeCharacterProblem(text, kind);
  if (problem === undefined) return true;
  context.addIssue({ code: 'custom', message: problem.message, params: { fix: problem.fix } });
  return false;
}
const safeCharacters =
  (kind: TextKind) =>
  (text: string, context: z.RefinementCtx): void => {
    checkCharacters(kind, text, context);
  };

export const SourceUrlSchema = z
  .string()
  // One problem, whatever is wrong: a refused character is named (it is invisible), else the URL rule.
  .superRefine((text, context) => {
    if (checkCharacters('name', text, context) && !isHttpsPostUrl(text)) {
      context.addIssue({ code: 'custom', message: 'must be an https URL of the original public post' });
    }
  })
  .meta({ format: 'uri' });

const characterCount = (text: string): number => [...text].length;

export const SummarySchema = z
  .string()
  .min(1, 'must not be empty')
  .refine((text) => characterCount(text) <= SUMMARY_MAX_CHARACTERS, {
    message: `must be at most ${SUMMARY_MAX_CHARACTERS} characters`,
  })
  .superRefine(safeCharacters('prose'));

/** A name: an account handle, an audience entry. */
const NameSchema = z.string().min(1).max(100).superRefine(safeCharacters('name'));

export const EventSchema = z
  .strictObject({
    id: EventIdSchema.describe('id of the original post; the permanent page is {base_url}/<provider>#event-<id>'),
    provider: ProviderSchema,
    kind: EventKindSchema,
    scope: ScopeSchema.describe('`global` (everyone) or `plan:<plan_name>` (one plan)'),
    announcedAt: UtcTimestampSchema,
    effectiveAt: UtcTimestampSchema.nullable().describe('set only when the post names a later effective time'),
    sourceUrl: SourceUrlSchema.describe('original public post; must be kept when republishing'),
    sourceAccount: NameSchema.describe('account handle that made the post'),
    summary: SummarySchema.describe('excerpt of the original post, up to 280 characters'),
    audience: z.array(NameSchema),
    verified: z.boolean().describe('checked by hand before it changed the board'),
  })
  .meta({ id: 'Event' });
export type Event = z.infer<typeof EventSchema>;

const Days = z.number().nonnegative();

export const ProviderStatsSchema = z
  .strictObject({
    totalResets: z.int().nonnegative().describe('count of reset events'),
    medianIntervalDays: Days.nullable().describe(`median gap of the last ${MEDIAN_BASIS_RESETS} resets, in days`),
    meanIntervalDays: Days.nullable().describe('mean gap in days'),
    longestWaitDays: Days.nullable().describe('longest gap in days'),
    hourHistogramUtc: z
      .array(z.int().nonnegative())
      .length(24)
      .describe('reset announcements per UTC hour; index 0 = 00:00'),
    firstRecordedAt: UtcTimestampSchema.nullable(),
  })
  .meta({ id: 'ProviderStats' });
export type ProviderStats = z.infer<typeof ProviderStatsSchema>;

export const ProviderStatusSchema = z
  .strictObject({
    provider: ProviderSchema,
    daysSince: Days.nullable().describe('fractional days since the last reset'),
    status: BoardStatusSchema,
    lastReset: EventSchema.nullable().describe('most recent event with kind reset'),
    latestSignal: EventSchema.nullable().describe('most recent event of any kind'),
    nextEstimate: UtcTimestampSchema.nullable().describe(
      `cadence estimate, not a vendor schedule: last reset + median gap of the last ${MEDIAN_BASIS_RESETS} resets; a value in the past means the estimate has passed, not that a reset is due (/api/forecast gives the chance of one soon)`,
    ),
    stats: ProviderStatsSchema,
  })
  .meta({ id: 'ProviderStatus' });
export type ProviderStatus = z.infer<typeof ProviderStatusSchema>;

export const NextEstimateSchema = z
  .strictObject({
    provider: ProviderSchema,
    lastReset: EventSchema.nullable(),
    daysSince: Days.nullable().describe('fractional days since the last reset'),
    nextEstimate: UtcTimestampSchema.nullable().describe('last reset + median gap; null when history is insufficient'),
    medianIntervalDays: Days.nullable().describe(`median gap of the last ${MEDIAN_BASIS_RESETS} resets, in days`),
    sampleSize: z.int().nonnegative().describe('number of gaps the median was taken from (at most 9)'),
    note: z.string().describe('what the estimate is, and is not, and whether its time has passed'),
  })
  .meta({ id: 'NextEstimate' });
export type NextEstimate = z.infer<typeof NextEstimateSchema>;

export const StatusResponseSchema = z
  .strictObject({
    updatedAt: UtcTimestampSchema,
    providers: z.array(ProviderStatusSchema),
  })
  .meta({ id: 'StatusResponse' });
export type StatusResponse = z.infer<typeof StatusResponseSchema>;

export const TimelineResponseSchema = z
  .strictObject({
    provider: z.union([ProviderSchema, z.literal('all')]),
    updatedAt: UtcTimestampSchema,
    events: z.array(EventSchema).describe('newest first'),
  })
  .meta({ id: 'TimelineResponse' });
export type TimelineResponse = z.infer<typeof TimelineResponseSchema>;

export const ErrorBodySchema = z
  .strictObject({
    error: z.enum([
      'invalid_query',
      'invalid_provider',
      'internal_error',
      'invalid_event',
      // The push write path's (decisions.md, "Push notifications").
      'invalid_request',
      'rate_limited',
      'push_unavailable',
      // Another method than GET or HEAD on a page (decisions.md, "The board on a phone").
      'method_not_allowed',
      // The chat webhooks' (decisions.md, "Chat webhooks").
      'webhooks_unavailable',
      // The WebSub hub's (decisions.md, "WebSub").
      'websub_unavailable',
      'ntfy_unavailable',
      // A channel at its total cap (decisions.md, "Delivery that loses nothing"): `<channel>_full`.
      'push_full',
      'discord_full',
      'slack_full',
      'websub_full',
      'hooks_full',
      'ntfy_full',
      'telegram_full',
      // The Telegram bot's webhook (decisions.md, "More channels"): no or a wrong secret header; the bot off or D1 down.
      'unauthorized',
      'telegram_unavailable',
      // A signed webhook's DELETE with a URL not stored or a wrong secret (decisions.md, "More channels").
      'hook_not_found',
    ]),
    issues: z
      .array(
        z.object({
          code: z.string(),
          path: z.array(z.union([z.string(), z.number()])),
          message: z.string(),
        }),
      )
      // At most MAX_LISTED_ISSUES, then one saying how many more (src/core/api/issue-cap.ts).
      .max(MAX_LISTED_ISSUES + 1)
      .optional(),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** JSON-RPC 2.0 as MCP uses it (spec 2.11); described here for the OpenAPI document. */
export const JsonRpcIdSchema = z.union([z.int(), z.string(), z.null()]);

export const JsonRpcRequestSchema = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: JsonRpcIdSchema.optional(),
    method: z.string().meta({ examples: ['initialize', 'tools/list', 'tools/call'] }),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'JsonRpcRequest' });

export const JsonRpcResponseSchema = lazySchema(() =>
  z
    .object({
      jsonrpc: z.literal('2.0'),
      id: JsonRpcIdSchema,
      result: z.record(z.string(), z.unknown()).optional(),
      error: z.object({ code: z.int(), message: z.string(), data: z.unknown().optional() }).optional(),
    })
    .meta({ id: 'JsonRpcResponse' }),
);
