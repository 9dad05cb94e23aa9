import { UTCDate } from '@date-fns/utc';
import { format } from 'date-fns';
import { KIND_LABELS, PROVIDER_LABELS, type Locale } from '../vocabulary.ts';
import type { Event } from '../schemas.ts';

/** Wording shared by the human-readable outputs (feeds, calendars, Markdown, pages). */

/** `5 Mar 2026`: the day of an instant in UTC, whatever the zone of the machine that renders it. */
export const utcDay = (iso: string): string => format(new UTCDate(iso), 'd MMM yyyy');

/** `2026-03-05 17:04 UTC`, from any ISO 8601 instant (UTC or with an offset). */
export const utcMinute = (iso: string): string => `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** `Provider A · Reset · 5 Mar 2026`: the title of an event in feeds and calendars. */
export const eventTitle = (event: Event, locale: Locale = 'en'): string =>
  `${PROVIDER_LABELS[locale][event.provider]} · ${KIND_LABELS[locale][event.kind]} · ${utcDay(event.announcedAt)}`;
