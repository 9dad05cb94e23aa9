import type { IcsQuery } from '../api/query.ts';
import { PROVIDER_LABELS, type Locale, type Provider } from '../enums.ts';
import { SERVICE_MACHINE_NAME, SERVICE_NAME } from '../site.ts';
import { publishedCalendar, serializeCalendar, utcBasic, type IcalComponent } from './ical/serialize.ts';

/** The window tracker's calendar (spec 4.5): one reminder per usage window the caller names. */

export const WINDOW_TRACKER_PRODID = `-//${SERVICE_NAME}//Window Tracker//EN`;
export const WINDOW_TAGS = { resetAt: '5h', weeklyAt: 'weekly' } as const;
type WindowField = keyof typeof WINDOW_TAGS;

const TEXT: Record<
  Locale,
  {
    calendarName: (provider: string) => string;
    summary: Record<WindowField, (provider: string) => string>;
    description: Record<WindowField, (provider: string) => string>;
    notASchedule: string;
    timeZone: (tz: string) => string;
    alarm: Record<WindowField, (provider: string) => string>;
  }
> = {
  en: {
    calendarName: (provider) => `${SERVICE_NAME}: ${provider} usage windows`,
    summary: {
      resetAt: (provider) => `${provider} 5-hour window resets`,
      weeklyAt: (provider) => `${provider} weekly window resets`,
    },
    description: {
      resetAt: (provider) => `Your ${provider} 5-hour usage window resets now, at the time you entered.`,
      weeklyAt: (provider) => `Your ${provider} weekly usage window resets now, at the time you entered.`,
    },
    notASchedule: 'A reminder built from your own reset time: not a vendor schedule and not an announcement.',
    timeZone: (tz) => `Time zone: ${tz}.`,
    alarm: {
      resetAt: (provider) => `${provider} 5-hour window resets in 5 minutes`,
      weeklyAt: (provider) => `${provider} weekly window resets in 5 minutes`,
    },
  },
  zh: {
    calendarName: (provider) => `${SERVICE_NAME}：${provider} 用量窗口`,
    summary: {
      resetAt: (provider) => `${provider} 5 小时窗口重置`,
      weeklyAt: (provider) => `${provider} 每周窗口重置`,
    },
    description: {
      resetAt: (provider) => `你的 ${provider} 5 小时用量窗口在此时重置（按你输入的时间）。`,
      weeklyAt: (provider) => `你的 ${provider} 每周用量窗口在此时重置（按你输入的时间）。`,
    },
    notASchedule: '这是根据你自己的重置时间生成的提醒，不是供应商的时间表，也不是官方公告。',
    timeZone: (tz) => `时区：${tz}。`,
    alarm: {
      resetAt: (provider) => `${provider} 5 小时窗口将在 5 分钟后重置`,
      weeklyAt: (provider) => `${provider} 每周窗口将在 5 分钟后重置`,
    },
  },
};

export interface WindowCalendarInput {
  query: IcsQuery;
  baseUrl: string;
  now: Date;
}

export const windowCalendarFileName = (provider: Provider): string => `${SERVICE_MACHINE_NAME}-${provider}-windows.ics`;

export function renderWindowCalendar({ query, baseUrl, now }: WindowCalendarInput): string {
  const text = TEXT[query.locale];
  const provider = PROVIDER_LABELS[query.locale][query.provider];
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
          { name: 'TRIGGER', value: '-PT5M' },
          { name: 'DESCRIPTION', text: text.alarm[field](provider) },
        ],
      },
    ],
  }));

  return serializeCalendar(publishedCalendar(WINDOW_TRACKER_PRODID, text.calendarName(provider), [], events));
}
