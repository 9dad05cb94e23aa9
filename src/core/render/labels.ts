import type { Locale } from '../vocabulary.ts';
import { KIND_LABELS, PROVIDER_LABELS } from '../i18n/labels.ts';
import type { Event } from '../schemas.ts';
import { utcDay } from '../time-format.ts';

/** Wording shared by the human-readable outputs (feeds, calendars, Markdown, pages). */

export { utcDay, utcMinute } from '../time-format.ts';

/** `Provider A · Reset · 5 Mar 2026`: the title of an event in feeds and calendars. */
export const eventTitle = (event: Event, locale: Locale = 'en'): string =>
  `${PROVIDER_LABELS[locale][event.provider]} · ${KIND_LABELS[locale][event.kind]} · ${utcDay(event.announcedAt)}`;
