import type { Locale } from '../core/vocabulary.ts';
import type { TrackerProblem } from '../core/tracker/plan.ts';

/** The window tracker's words, in both languages; used by the page and by its script. */
export const TRACKER_TEXT: Record<
  Locale,
  {
    title: string;
    intro: string;
    provider: string;
    reset: string;
    weekly: string;
    timeZone: string;
    timeZoneHint: string;
    calendarLanguage: string;
    submit: string;
    download: string;
    copyableUrl: string;
    copy: string;
    copied: string;
    converted: (local: string, timeZone: string, utc: string) => string;
    notASchedule: string;
    problems: Record<TrackerProblem, string>;
    languages: Record<Locale, string>;
  }
> = {
  en: {
    title: 'Window tracker',
    intro: 'Enter when your own usage windows reset, and get a calendar with a reminder 5 minutes before each.',
    provider: 'Provider',
    reset: '5-hour window resets at',
    weekly: 'Weekly window resets at',
    timeZone: 'Your time zone',
    timeZoneHint: 'An IANA name such as Europe/Berlin or Asia/Shanghai',
    calendarLanguage: 'Calendar language',
    submit: 'Make my calendar link',
    download: 'Download the calendar (.ics)',
    copyableUrl: 'Calendar URL',
    copy: 'Copy',
    copied: 'Copied',
    converted: (local, timeZone, utc) => `${local.replace('T', ' ')} in ${timeZone} is ${utc}`,
    notASchedule: 'These reminders come from the times you enter: they are not a vendor schedule.',
    problems: {
      time_zone: 'That time zone is unknown. Use an IANA name such as Europe/Berlin.',
      reset_time: 'That 5-hour window time does not exist in your time zone (a clock change?).',
      weekly_time: 'That weekly window time does not exist in your time zone (a clock change?).',
    },
    languages: { en: 'English', zh: '中文' },
  },
  zh: {
    title: '窗口提醒',
    intro: '输入你自己的用量窗口重置时间，即可获得一份日历，每次重置前 5 分钟提醒你。',
    provider: '供应商',
    reset: '5 小时窗口重置时间',
    weekly: '每周窗口重置时间',
    timeZone: '你的时区',
    timeZoneHint: 'IANA 时区名，例如 Asia/Shanghai 或 Europe/Berlin',
    calendarLanguage: '日历语言',
    submit: '生成日历链接',
    download: '下载日历（.ics）',
    copyableUrl: '日历链接',
    copy: '复制',
    copied: '已复制',
    converted: (local, timeZone, utc) => `${timeZone} 的 ${local.replace('T', ' ')} 即 ${utc}`,
    notASchedule: '这些提醒来自你输入的时间，并非供应商的时间表。',
    problems: {
      time_zone: '无法识别该时区。请使用 IANA 时区名，例如 Asia/Shanghai。',
      reset_time: '该 5 小时窗口时间在你的时区中不存在（是否遇到夏令时切换？）。',
      weekly_time: '该每周窗口时间在你的时区中不存在（是否遇到夏令时切换？）。',
    },
    languages: { en: 'English', zh: '中文' },
  },
};
