import { z } from 'zod';
import { PROVIDERS } from '../enums.ts';
import { LOCALES, type Locale } from '../languages.ts';

/**
 * Query parameters: one zod schema per endpoint, which both parses requests and describes the parameters
 * in the OpenAPI document. Unknown parameters are ignored; a known one given twice is refused.
 */

export const TIMELINE_LIMIT = { min: 1, max: 500, default: 200 } as const;

export const ProviderFilterSchema = z.enum([...PROVIDERS, 'all']).meta({ id: 'ProviderFilter' });
export type ProviderFilter = z.infer<typeof ProviderFilterSchema>;

/** A plain decimal integer in [min, max]: no sign, no exponent, no fraction, no spaces. */
export const decimalIntegerParam = (min: number, max: number) =>
  z
    .string()
    .regex(/^[0-9]+$/, 'must be a plain decimal integer')
    .transform(Number)
    .pipe(z.int().min(min).max(max));

export const TimelineQuerySchema = z.object({
  provider: ProviderFilterSchema.default('all').describe('one provider, or all three'),
  limit: decimalIntegerParam(TIMELINE_LIMIT.min, TIMELINE_LIMIT.max)
    .default(TIMELINE_LIMIT.default)
    .describe(
      `the most events to return, newest first: digits only, ${TIMELINE_LIMIT.min} to ${TIMELINE_LIMIT.max} (default ${TIMELINE_LIMIT.default})`,
    ),
  format: z.enum(['json', 'csv']).default('json').describe('json (TimelineResponse) or csv (as /api/timeline.csv)'),
});
export type TimelineQuery = z.infer<typeof TimelineQuerySchema>;

export const TimelineCsvQuerySchema = TimelineQuerySchema.omit({ format: true });

/** `?provider=` naming one provider, or none for all three: the feeds, the announcement calendar, the status lines. */
export const OneProviderQuerySchema = z.object({
  provider: z.enum(PROVIDERS).optional().describe('one provider; omit for all three'),
});
export type OneProviderQuery = z.infer<typeof OneProviderQuerySchema>;

/** IANA zone names as the spec allows them (only echoed, never interpreted). */
export const TZ_PATTERN = /^[A-Za-z0-9_+\-/]+$/;

/** The years iCalendar's DATE-TIME can write (four digits, RFC 5545 3.3.5), as the UTC calendar counts them. */
export const CALENDAR_YEARS = { min: 1, max: 9999 } as const;

/** A date-time with `Z` or an explicit offset, as ISO 8601 writes it (no other check). */
const OffsetDateTimeSchema = z.iso.datetime({ offset: true });

/**
 * Whether `value` is such a date-time once its spaces are plus signs: a `+01:00` offset sent unencoded, which a
 * URL query decodes as a space (`application/x-www-form-urlencoded`).
 */
const isPlusDecodedAsSpace = (value: unknown): boolean =>
  typeof value === 'string' &&
  value.includes(' ') &&
  OffsetDateTimeSchema.safeParse(value.replaceAll(' ', '+')).success;

/**
 * What a refused time is told, one message per field. Every example can be pasted into a URL as it is: a
 * positive offset's plus sign is written `%2B` there, and none of these messages holds a raw one.
 */
export const WINDOW_TIME_MESSAGES = {
  plusAsSpace:
    'the offset’s plus sign arrived as a space, as a URL query decodes it: write it %2B, like 2026-03-04T18:30:00%2B01:00',
  notADateTime:
    'must be an ISO 8601 date-time with Z or an offset, like 2026-03-04T18:30:00Z, 2026-03-04T18:30:00-05:00 or 2026-03-04T18:30:00%2B01:00 (a plus sign is written %2B in a URL)',
  outsideYears: 'must fall within the years 0001–9999 in UTC',
} as const;

/**
 * A date-time with `Z` or an explicit offset; impossible dates (30 February) are refused, and so is a time
 * whose UTC date leaves years 0001–9999 (`0000-01-01T00:00:00+08:00` is in year 0 in UTC, and
 * `9999-12-31T23:59:59-05:00` in year 10000): the calendar writes UTC times. A value gets one issue: the
 * format's (which names a plus sign decoded as a space when that is what happened) stops the years' check.
 */
const WindowTimeSchema = z.iso
  .datetime({
    offset: true,
    abort: true,
    error: (issue) =>
      isPlusDecodedAsSpace(issue.input) ? WINDOW_TIME_MESSAGES.plusAsSpace : WINDOW_TIME_MESSAGES.notADateTime,
  })
  .refine(
    (value) => {
      const year = new Date(Date.parse(value)).getUTCFullYear();
      return year >= CALENDAR_YEARS.min && year <= CALENDAR_YEARS.max;
    },
    { message: WINDOW_TIME_MESSAGES.outsideYears },
  );

export const IcsQuerySchema = z
  .object({
    provider: z.enum(PROVIDERS).describe('used in event titles'),
    resetAt: WindowTimeSchema.optional().describe(
      'reset time of the 5-hour window, with Z or an offset; a plus sign is written %2B (2026-03-04T18:30:00%2B01:00)',
    ),
    weeklyAt: WindowTimeSchema.optional().describe(
      'reset time of the weekly window, with Z or an offset (%2B for a plus sign); the event repeats weekly',
    ),
    tz: z
      .string()
      .max(64)
      .regex(TZ_PATTERN, 'must be an IANA zone name')
      .optional()
      .describe('only echoed in the event description'),
    // The spec's parameter, as the spec has it: English or Chinese only (default en).
    locale: z.enum(['en', 'zh']).optional().describe('language of event titles: en (the default) or zh'),
    // Every site language (src/core/languages.ts), in place of locale.
    lang: z
      .enum(LOCALES)
      .optional()
      .describe(`language of event titles, any of the site's: ${LOCALES.join(', ')}; instead of locale, never with it`),
  })
  .refine((query) => query.resetAt !== undefined || query.weeklyAt !== undefined, {
    message: 'give at least one of resetAt and weeklyAt',
    path: ['resetAt'],
  })
  .refine((query) => query.locale === undefined || query.lang === undefined, {
    message: 'give locale or lang, not both',
    path: ['lang'],
  });
export type IcsQuery = z.infer<typeof IcsQuerySchema>;
/** The calendar's language: `lang`, else the spec's `locale`, else English. */
export const icsLocale = (query: Pick<IcsQuery, 'locale' | 'lang'>): Locale => query.lang ?? query.locale ?? 'en';

export interface QueryIssue {
  code: string;
  path: (string | number)[];
  message: string;
}

/** A zod error's issues as the error bodies carry them (a symbol in a path is written out). */
export const issuesOf = (error: z.ZodError): QueryIssue[] =>
  error.issues.map((issue) => ({
    code: issue.code,
    path: issue.path.map((part) => (typeof part === 'symbol' ? String(part) : part)),
    message: issue.message,
  }));

export type QueryResult<T> = { ok: true; value: T } | { ok: false; issues: QueryIssue[] };

/** Parses the known parameters of `schema` from a query string, reporting every problem at once. */
export function parseQuery<S extends z.ZodObject>(schema: S, params: URLSearchParams): QueryResult<z.infer<S>> {
  const issues: QueryIssue[] = [];
  const raw: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const values = params.getAll(key);
    if (values.length > 1) {
      issues.push({ code: 'repeated_parameter', path: [key], message: `"${key}" may be given at most once` });
    } else if (values.length === 1) {
      raw[key] = values[0]!;
    }
  }
  // A repeated parameter is left out of `raw`, so the schema says nothing more about it (a required one's absence
  // included: a form's required field given twice is one issue, not two).
  const parsed = schema.safeParse(raw);
  const repeated = new Set(issues.map((issue) => issue.path[0]));
  if (parsed.error) issues.push(...issuesOf(parsed.error).filter((issue) => !repeated.has(issue.path[0])));
  return issues.length > 0 || !parsed.success ? { ok: false, issues } : { ok: true, value: parsed.data };
}
