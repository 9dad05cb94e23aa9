import { TZDate } from '@date-fns/tz';
import type { Locale, Provider } from '../vocabulary.ts';

/**
 * The window tracker's arithmetic, shared by the page (at the edge, without JavaScript) and its script (in
 * the browser): a wall-clock time in a named zone becomes an instant with an offset, and that a link.
 */

/** How long before each window reset the calendar's reminder goes off. */
export const REMINDER_MINUTES_BEFORE = 5;

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

export function isTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** `2026-11-21T18:30` in `Europe/Berlin` → `2026-11-21T18:30:00.000+01:00`; null if either is not valid. */
export function localTimeToOffsetIso(local: string, timeZone: string): string | null {
  const parts = LOCAL_DATE_TIME.exec(local);
  if (parts === null || !isTimeZone(timeZone)) return null;
  const [year, month, day, hour, minute] = parts.slice(1).map(Number) as [number, number, number, number, number];
  const date = new TZDate(year, month - 1, day, hour, minute, timeZone);
  // A wall time that does not exist (a DST gap) or that rolled over (30 February) is refused, not moved.
  if (date.getDate() !== day || date.getHours() !== hour || date.getMinutes() !== minute) return null;
  return date.toISOString();
}

export interface WindowLinkInput {
  provider: Provider;
  resetAt: string | null;
  weeklyAt: string | null;
  timeZone: string;
  locale: Locale;
}

/** The `/api/ics` path and query for the windows given; null when no window is given. */
export function windowCalendarPath({ provider, resetAt, weeklyAt, timeZone, locale }: WindowLinkInput): string | null {
  if (resetAt === null && weeklyAt === null) return null;
  const query = new URLSearchParams({ provider });
  if (resetAt !== null) query.set('resetAt', resetAt);
  if (weeklyAt !== null) query.set('weeklyAt', weeklyAt);
  query.set('tz', timeZone);
  // The spec's `locale` names English and Chinese only; every other language is `lang` (docs/calendar.md).
  query.set(locale === 'en' || locale === 'zh' ? 'locale' : 'lang', locale);
  return `/api/ics?${query.toString()}`;
}
