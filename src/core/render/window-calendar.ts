import { type IcsQuery, icsLocale } from '../api/query.ts';
import type { Provider } from '../enums.ts';
import { PROVIDER_LABELS } from '../i18n/labels.ts';
import { TRANSLATIONS } from '../i18n/index.ts';
import { SERVICE_MACHINE_NAME, SERVICE_NAME } from '../site.ts';
import { REMINDER_MINUTES_BEFORE } from '../tracker/window-link.ts';
import { publishedCalendar, serializeCalendar, utcBasic, type IcalComponent } from './ical/serialize.ts';

/** The window tracker's calendar (spec 4.5): one reminder per usage window the caller names, weekly for the weekly one. */

export const WINDOW_TRACKER_PRODID = `-//${SERVICE_NAME}//Window Tracker//EN`;
export const WINDOW_TAGS = { resetAt: '5h', weeklyAt: 'weekly' } as const;
type WindowField = keyof typeof WINDOW_TAGS;

export interface WindowCalendarInput {
  query: IcsQuery;
  baseUrl: string;
  now: Date;
}

export const windowCalendarFileName = (provider: Provider): string => `${SERVICE_MACHINE_NAME}-${provider}-windows.ics`;

export function renderWindowCalendar({ query, baseUrl, now }: WindowCalendarInput): string {
  const locale = icsLocale(query);
  const text = TRANSLATIONS[locale].windowCalendar;
  const provider = PROVIDER_LABELS[locale][query.provider];
  const host = new URL(baseUrl).hostname;
  const windows = (Object.keys(WINDOW_TAGS) as WindowField[]).flatMap((field) => {
    const at = query[field];
    return at === undefined ? [] : [{ field, ms: Date.parse(at) }];
  });

  const events: IcalComponent[] = windows.map(({ field, ms }) => ({
    name: 'VEVENT',
    properties: [
      { name: 'UID', text: `${SERVICE_MACHINE_NAME}-${query.provider}-${WINDOW_TAGS[field]}-${ms}@${host}` },
      { name: 'DTSTAMP', value: utcBasic(now.getTime()) },
      { name: 'DTSTART', value: utcBasic(ms) },
      // The weekly window comes back every week at the same instant: one VEVENT that repeats (decisions.md,
      // "One honest answer"). The 5-hour window starts when you next use the tool, so it does not repeat.
      ...(field === 'weeklyAt' ? [{ name: 'RRULE', value: 'FREQ=WEEKLY' }] : []),
      { name: 'DURATION', value: 'PT15M' },
      { name: 'SUMMARY', text: text.summary[field](provider) },
      {
        name: 'DESCRIPTION',
        text: [
          text.description[field](provider),
          text.notASchedule,
          ...(query.tz ? [text.timeZone(query.tz)] : []),
        ].join('\n'),
      },
      { name: 'URL', value: `${baseUrl}/tracker` },
    ],
    components: [
      {
        name: 'VALARM',
        properties: [
          { name: 'ACTION', value: 'DISPLAY' },
          { name: 'TRIGGER', value: `-PT${REMINDER_MINUTES_BEFORE}M` },
          { name: 'DESCRIPTION', text: text.alarm[field](provider) },
        ],
      },
    ],
  }));

  return serializeCalendar(publishedCalendar(WINDOW_TRACKER_PRODID, text.calendarName(provider), [], events));
}
