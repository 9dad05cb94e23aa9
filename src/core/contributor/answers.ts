import { impossibleDateTime } from '../content/impossible-date.ts';
import { announcedAtProblem, effectiveAtProblem } from '../content/time-rules.ts';
import { EventKindSchema, ProviderSchema } from '../enums.ts';
import {
  EventIdSchema,
  EventSchema,
  ScopeSchema,
  SourceUrlSchema,
  SUMMARY_MAX_CHARACTERS,
  SummarySchema,
} from '../schemas.ts';
import { EVENT_KINDS, PROVIDERS } from '../vocabulary.ts';
import type { z } from 'zod';

/**
 * The answers `npm run event:add` asks for, each checked the moment it is given (so a person can be asked
 * again at once), with the same schemas the whole event is checked with later. Field names are the event's.
 */

export type AnswerCheck = { ok: true; value: string } | { ok: false; message: string };

const bySchema =
  (schema: z.ZodType<unknown>) =>
  (answer: string): AnswerCheck => {
    const result = schema.safeParse(answer);
    return result.success
      ? { ok: true, value: answer }
      : { ok: false, message: result.error.issues.map((issue) => issue.message).join('; ') };
  };

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|([+-])(\d{2}):?(\d{2}))$/i;
const TIMESTAMP_HINT = 'an ISO 8601 date-time with Z or an offset, e.g. 2026-11-21T18:30:00+08:00';

/**
 * A date-time with `Z` or an offset, as UTC with milliseconds. `Date.parse` rolls 30 February over to
 * 2 March without a word; here a day, hour or minute that does not exist is refused and named.
 */
export function checkTimestamp(answer: string): AnswerCheck {
  const match = TIMESTAMP.exec(answer.trim());
  if (match === null) return { ok: false, message: `must be ${TIMESTAMP_HINT}` };
  const [
    ,
    year = '',
    month = '',
    day = '',
    hour = '',
    minute = '',
    second = '00',
    ,
    offsetHours = '00',
    offsetMinutes = '00',
  ] = match;
  // The calendar and clock are the content rules' own check (a date the validator would refuse is refused here).
  const impossible = impossibleDateTime(`${year}-${month}-${day}T${hour}:${minute}:${second}`);
  if (impossible !== undefined) return { ok: false, message: `is not a real date-time: ${impossible}` };
  if (Number(offsetHours) > 14 || Number(offsetMinutes) > 59)
    return { ok: false, message: 'has an offset that no time zone uses (at most ±14:00)' };
  return { ok: true, value: new Date(Date.parse(answer.trim())).toISOString() };
}

/**
 * When the post was published: a real date-time (checkTimestamp) that the event tree's rule takes, so not after
 * `now`, the command's clock when the answer is given. A time in the future is most often a local time typed
 * with the wrong offset, so the message shows how the answer was read.
 */
export function checkAnnouncedAt(answer: string, now: Date): AnswerCheck {
  const checked = checkTimestamp(answer);
  if (!checked.ok) return checked;
  const problem = announcedAtProblem(checked.value, now);
  if (problem === undefined) return checked;
  return { ok: false, message: `${problem}; it reads as ${checked.value}: check the time and its offset` };
}

/** A later time the post names: a real date-time after `announcedAt` (when that is known already). */
export function checkEffectiveAt(answer: string, announcedAt: string | undefined): AnswerCheck {
  const checked = checkTimestamp(answer);
  if (!checked.ok || announcedAt === undefined) return checked;
  const problem = effectiveAtProblem(checked.value, announcedAt);
  if (problem === undefined) return checked;
  return {
    ok: false,
    message: `${problem} (${announcedAt}); leave it empty when the post names no later time`,
  };
}

export const checkProvider = (answer: string): AnswerCheck =>
  ProviderSchema.safeParse(answer.trim()).success
    ? { ok: true, value: answer.trim() }
    : { ok: false, message: `must be one of ${PROVIDERS.join(', ')}` };

export const checkKind = (answer: string): AnswerCheck =>
  EventKindSchema.safeParse(answer.trim()).success
    ? { ok: true, value: answer.trim() }
    : { ok: false, message: `must be one of ${EVENT_KINDS.join(', ')}` };

export const checkSourceUrl = (answer: string): AnswerCheck => bySchema(SourceUrlSchema)(answer.trim());

export const checkAccount = (answer: string): AnswerCheck =>
  bySchema(EventSchema.shape.sourceAccount)(answer.trim().replace(/^@/, ''));

export function checkSummary(answer: string): AnswerCheck {
  const summary = answer.trim();
  const length = [...summary].length;
  if (length > SUMMARY_MAX_CHARACTERS)
    return { ok: false, message: `is ${length} characters; the limit is ${SUMMARY_MAX_CHARACTERS}` };
  return bySchema(SummarySchema)(summary);
}

/** Empty means `global`. */
export const checkScope = (answer: string): AnswerCheck => bySchema(ScopeSchema)(answer.trim() || 'global');

/** Who the post addresses, comma-separated (`pro, team`); empty means nobody in particular. */
export function checkAudience(answer: string): { ok: true; value: string[] } | { ok: false; message: string } {
  const audience = answer
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const result = EventSchema.shape.audience.safeParse(audience);
  if (result.success) return { ok: true, value: audience };
  // A refused character is named as the content rules name it (src/core/content/unsafe-characters.ts).
  const refused = result.error.issues.find((issue) => issue.code === 'custom');
  return refused === undefined
    ? { ok: false, message: 'each entry must be 1 to 100 characters' }
    : { ok: false, message: `entry ${Number(refused.path[0]) + 1} ${refused.message}` };
}

export const checkId = (answer: string): AnswerCheck => bySchema(EventIdSchema)(answer.trim());
