import { LOCALES, PROVIDERS, type Locale, type Provider } from '../vocabulary.ts';
import { localTimeToOffsetIso, isTimeZone, windowCalendarPath } from './window-link.ts';

/**
 * What the tracker page shows for the form's values: the same function runs at the edge on a submitted
 * GET form (no JavaScript) and in the browser on every keystroke.
 */

export type TrackerProblem = 'time_zone' | 'reset_time' | 'weekly_time';

export interface TrackerPlan {
  provider: Provider;
  locale: Locale;
  timeZone: string;
  reset: string;
  weekly: string;
  /** The instants with offsets, where the wall times are valid. */
  resetAt: string | null;
  weeklyAt: string | null;
  problems: TrackerProblem[];
  /** `/api/ics?...`, once at least one window is valid and nothing is wrong. */
  calendarPath: string | null;
}

const oneOf = <T extends string>(values: readonly T[], value: string | null, fallback: T): T =>
  values.includes(value as T) ? (value as T) : fallback;

export function planWindowTracker(form: URLSearchParams, pageLocale: Locale): TrackerPlan {
  const provider = oneOf(PROVIDERS, form.get('provider'), 'provider_a');
  const locale = oneOf(LOCALES, form.get('locale'), pageLocale);
  const timeZone = (form.get('tz') ?? '').trim() || 'UTC';
  const reset = form.get('reset') ?? '';
  const weekly = form.get('weekly') ?? '';
  const problems: TrackerProblem[] = [];
  if (!isTimeZone(timeZone)) problems.push('time_zone');
  const resetAt = reset ? localTimeToOffsetIso(reset, timeZone) : null;
  const weeklyAt = weekly ? localTimeToOffsetIso(weekly, timeZone) : null;
  if (reset && resetAt === null && !problems.includes('time_zone')) problems.push('reset_time');
  if (weekly && weeklyAt === null && !problems.includes('time_zone')) problems.push('weekly_time');
  const calendarPath =
    problems.length > 0 ? null : windowCalendarPath({ provider, resetAt, weeklyAt, timeZone, locale });
  return { provider, locale, timeZone, reset, weekly, resetAt, weeklyAt, problems, calendarPath };
}
