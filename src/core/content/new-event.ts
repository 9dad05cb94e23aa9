import { EventSchema, type Event } from '../schemas.ts';

/**
 * Turning what a contributor (or the watcher) knows about a post into a draft Event. The draft goes
 * through the same schema and content rules as every other file before it is written.
 */

const ID_ALPHABET = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/**
 * The post's id as its URL shows it: the last path segment that fits the id alphabet (`…/status/1843…`,
 * `…/posts/2026-11-19-reset`); failing that, the path's segments joined with `-`. Null if nothing usable.
 */
export function idFromPostUrl(postUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(postUrl);
  } catch {
    return null;
  }
  const segments = url.pathname
    .split('/')
    .map((segment) => decodeURIComponent(segment).replace(/\.(html?|php)$/i, ''))
    .filter(Boolean);
  const last = segments.at(-1);
  if (last !== undefined && ID_ALPHABET.test(last)) return last;
  const joined = segments
    .join('-')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^[-_]+|-+$/g, '')
    .slice(0, 128);
  return ID_ALPHABET.test(joined) ? joined : null;
}

/** Any ISO 8601 date-time with `Z` or an offset → UTC with milliseconds; null without an offset or if invalid. */
export function toUtcTimestamp(input: string): string | null {
  const trimmed = input.trim();
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i.test(trimmed)) return null;
  const ms = Date.parse(trimmed);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

export interface DraftInput {
  provider: string;
  kind: string;
  scope?: string;
  sourceUrl: string;
  sourceAccount: string;
  summary: string;
  announcedAt: string;
  effectiveAt?: string | null;
  audience?: string[];
  id?: string;
}

export type DraftResult = { ok: true; event: Event } | { ok: false; problems: { field: string; message: string }[] };

export function buildDraftEvent(input: DraftInput): DraftResult {
  const problems: { field: string; message: string }[] = [];
  const id = input.id?.trim() || idFromPostUrl(input.sourceUrl);
  if (!id)
    problems.push({
      field: 'id',
      message: 'could not be derived from the post URL; give one (letters, digits, "_" or "-")',
    });
  const announcedAt = toUtcTimestamp(input.announcedAt);
  if (announcedAt === null)
    problems.push({
      field: 'announcedAt',
      message: 'must be an ISO 8601 date-time with Z or an offset, e.g. 2026-11-21T18:30:00+08:00',
    });
  const effectiveAt = input.effectiveAt ? toUtcTimestamp(input.effectiveAt) : null;
  if (input.effectiveAt && effectiveAt === null)
    problems.push({ field: 'effectiveAt', message: 'must be an ISO 8601 date-time with Z or an offset' });
  if (problems.length > 0) return { ok: false, problems };

  const parsed = EventSchema.safeParse({
    id,
    provider: input.provider,
    kind: input.kind,
    scope: input.scope?.trim() || 'global',
    announcedAt,
    effectiveAt,
    sourceUrl: input.sourceUrl.trim(),
    sourceAccount: input.sourceAccount.trim().replace(/^@/, ''),
    summary: input.summary.trim(),
    audience: input.audience ?? [],
    verified: false,
  });
  if (parsed.success) return { ok: true, event: parsed.data };
  return {
    ok: false,
    problems: parsed.error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message })),
  };
}

/** The one way an event file is written: two-space JSON, fields in the spec's order, a final newline. */
export const serializeEventFile = (event: Event): string => `${JSON.stringify(EventSchema.parse(event), null, 2)}\n`;
