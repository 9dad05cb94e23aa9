import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';
import { ProviderSchema } from './enums.ts';
import { UtcTimestampSchema } from './schemas.ts';
import { TRANSLATIONS } from './i18n/index.ts';
import type { Locale } from './vocabulary.ts';

/**
 * Source health: each watch run (the worker's minute cron, or `npm run watch`) writes a report of the sources it
 * read, and `GET /api/sources` serves the newest with a `state` computed at request time. A board whose last check
 * is older than 5 minutes says it is delayed; a source that failed is counted, never hidden.
 */

/** The Workers KV binding (wrangler.jsonc `kv_namespaces`) and the key of the latest report in it. */
export const SOURCE_HEALTH_BINDING = 'SOURCE_HEALTH';
export const SOURCE_REPORT_KEY = 'source-report';
/** A report older than this makes the board `delayed`: the cron polls every minute, so five missed runs in a row. */
export const DELAYED_AFTER_MINUTES = 5;
const MS_PER_MINUTE = 60_000;
export const DELAYED_AFTER_MS = DELAYED_AFTER_MINUTES * MS_PER_MINUTE;

/** A source whose polls have failed for longer than this (in a row) makes the board `failing`. */
export const FAILING_AFTER_MINUTES = 15;
export const FAILING_AFTER_MS = FAILING_AFTER_MINUTES * MS_PER_MINUTE;

/** A failure's reason is kept short: it is shown to readers, and a feed's error page must not fill the KV value. */
export const ERROR_MAX_CHARACTERS = 500;

const shortened = (text: string): string => {
  const characters = [...text];
  return characters.length <= ERROR_MAX_CHARACTERS
    ? text
    : `${characters.slice(0, ERROR_MAX_CHARACTERS - 1).join('')}…`;
};

export const SourceCheckSchema = z
  .strictObject({
    provider: ProviderSchema,
    name: z.string().min(1).max(100).describe('the account the feed belongs to'),
    url: z.url().describe('the feed that was read'),
    checkedAt: UtcTimestampSchema.describe('when this source was read'),
    ok: z.boolean().describe('the feed answered and could be read'),
    error: z.string().max(ERROR_MAX_CHARACTERS).nullable().describe('why it failed; null when ok'),
    itemsSeen: z.int().nonnegative().describe('items in the feed at that check (0 when it failed)'),
    failingSince: UtcTimestampSchema.optional().describe(
      'when the run of failed polls this failure belongs to began; only on a failed check (left out by older runs)',
    ),
  })
  .meta({ id: 'SourceCheck' });
export type SourceCheck = z.infer<typeof SourceCheckSchema>;

export const SourceReportSchema = z
  .strictObject({
    checkedAt: UtcTimestampSchema.describe('when the watch run finished (the minute cron: the minute it ran for)'),
    sources: z.array(SourceCheckSchema),
  })
  .meta({ id: 'SourceReport' });
export type SourceReport = z.infer<typeof SourceReportSchema>;

export const SourcesStateSchema = z.enum(['current', 'delayed', 'failing', 'unknown']).meta({ id: 'SourcesState' });
export type SourcesState = z.infer<typeof SourcesStateSchema>;

export const SourcesResponseSchema = lazySchema(() =>
  z
    .strictObject({
      checkedAt: UtcTimestampSchema.nullable().describe('when the last watch run finished; null before the first'),
      sources: z.array(SourceCheckSchema),
      state: SourcesStateSchema.describe(
        `current; delayed when the last report is older than ${DELAYED_AFTER_MINUTES} minutes; failing when a source's polls have failed for over ${FAILING_AFTER_MINUTES} minutes; unknown without a report, or when the state database cannot be read or is not migrated`,
      ),
    })
    .meta({ id: 'SourcesResponse' }),
);
export type SourcesResponse = z.infer<typeof SourcesResponseSchema>;

/**
 * A watch run's results as the report stores them, long error texts shortened; throws when a result does
 * not fit the schema (a bug in the watcher, not a property of a feed).
 */
export function buildSourceReport(results: readonly SourceCheck[], finishedAt: Date): SourceReport {
  const sources = results.map((result) => ({
    ...result,
    error: result.error === null ? null : shortened(result.error),
  }));
  return SourceReportSchema.parse({ checkedAt: finishedAt.toISOString(), sources });
}

/** When a failed source's run of failures began: its own mark, else (a report written before the mark) its check. */
const failingSinceOf = (source: SourceCheck): string => source.failingSince ?? source.checkedAt;

export const sourcesStateOf = (report: SourceReport | null, now: Date): SourcesState => {
  if (report === null) return 'unknown';
  if (
    report.sources.some((source) => !source.ok && now.getTime() - Date.parse(failingSinceOf(source)) > FAILING_AFTER_MS)
  )
    return 'failing';
  return now.getTime() - Date.parse(report.checkedAt) > DELAYED_AFTER_MS ? 'delayed' : 'current';
};

export const UNKNOWN_SOURCES: SourcesResponse = { checkedAt: null, sources: [], state: 'unknown' };
const UNKNOWN = UNKNOWN_SOURCES;

/**
 * A report as it is stored (Workers KV, D1): marked with the version of its shape. `buildSourceReport` checked the
 * report as it was made, so a reader trusts a report marked with its own version and pays only `JSON.parse`: no zod
 * parse on the first board page of an isolate (docs/performance.md, "Pages from templates"), as the worker trusts the
 * build's stamped data files. Raise the version whenever SourceReport's shape changes.
 */
export const SOURCE_REPORT_VERSION = 1;

export const storedSourceReport = (report: SourceReport): string =>
  JSON.stringify({ version: SOURCE_REPORT_VERSION, report });

/** The report a stored value holds, trusted when marked with this version; anything else goes through the schema. */
function storedReportOf(json: unknown): ReturnType<typeof SourceReportSchema.safeParse> {
  const marked = typeof json === 'object' && json !== null && 'version' in json && 'report' in json;
  if (marked && json.version === SOURCE_REPORT_VERSION) return { success: true, data: json.report as SourceReport };
  // A report of another version, or one stored before the mark (a bare report) or by hand.
  return SourceReportSchema.safeParse(marked ? json.report : json);
}

/**
 * `GET /api/sources` from the text stored under SOURCE_REPORT_KEY (null: no run has written one yet).
 * A stored value that is not a valid report is answered as `unknown`, not as a server error: readers learn
 * as much as with no report at all, and `problem` says why so the handler can log it.
 */
export function sourcesResponse(
  stored: string | null,
  now: Date,
): { response: SourcesResponse; problem: string | null } {
  if (stored === null) return { response: UNKNOWN, problem: null };
  let json: unknown;
  try {
    json = JSON.parse(stored);
  } catch {
    return { response: UNKNOWN, problem: `the stored ${SOURCE_REPORT_KEY} is not JSON` };
  }
  const parsed = storedReportOf(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return {
      response: UNKNOWN,
      problem:
        `the stored ${SOURCE_REPORT_KEY} is not a SourceReport: ${first?.path.join('.') || '(root)'} ${first?.message ?? ''}`.trim(),
    };
  }
  const report = parsed.data;
  return {
    response: { checkedAt: report.checkedAt, sources: report.sources, state: sourcesStateOf(report, now) },
    problem: null,
  };
}

const MS_PER_SECOND = 1000;
const MS_PER_HOUR = 60 * MS_PER_MINUTE;
const MS_PER_DAY = 24 * MS_PER_HOUR;

/**
 * "40 s ago", "4 min ago", "3 h ago", "2 d ago": whole units, rounded down, in seconds under a minute (the sources
 * are polled every minute, so that is how fresh a current report is); under a second (or in the future) "just now".
 */
export function checkedAgo(checkedAt: string, now: Date, locale: Locale): string {
  const words = TRANSLATIONS[locale].sourceHealth;
  const age = now.getTime() - Date.parse(checkedAt);
  if (age < MS_PER_SECOND) return words.justNow;
  if (age < MS_PER_MINUTE) return words.secondsAgo(Math.floor(age / MS_PER_SECOND));
  if (age < MS_PER_HOUR) return words.minutesAgo(Math.floor(age / MS_PER_MINUTE));
  if (age < 2 * MS_PER_DAY) return words.hoursAgo(Math.floor(age / MS_PER_HOUR));
  return words.daysAgo(Math.floor(age / MS_PER_DAY));
}

/** The board's one line about its sources, e.g. "sources checked 40 s ago, 5 of 6 answering, 1 failing". */
export function sourceHealthLine(response: SourcesResponse, now: Date, locale: Locale): string {
  const words = TRANSLATIONS[locale].sourceHealth;
  if (response.state === 'unknown' || response.checkedAt === null) return words.notCheckedYet;
  const ago = checkedAgo(response.checkedAt, now, locale);
  const total = response.sources.length;
  const answering = response.sources.filter((source) => source.ok).length;
  const failing = total - answering;
  const delayed = now.getTime() - Date.parse(response.checkedAt) > DELAYED_AFTER_MS;
  const parts = delayed ? [words.delayed(ago)] : [words.checked(ago), words.answering(answering, total)];
  if (response.state === 'failing') parts.push(words.failingLong(failing, FAILING_AFTER_MINUTES));
  else if (failing > 0) parts.push(words.failing(failing));
  return parts.join(words.separator);
}
