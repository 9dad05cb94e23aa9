import type { Locale } from './vocabulary.ts';

/** The words of the board's source-health line, in both languages (to join the site's i18n files). */

interface SourceHealthWords {
  notCheckedYet: string;
  checked: (ago: string) => string;
  answering: (answering: number, total: number) => string;
  failing: (failing: number) => string;
  delayed: (ago: string) => string;
  separator: string;
  justNow: string;
  minutesAgo: (minutes: number) => string;
  hoursAgo: (hours: number) => string;
  daysAgo: (days: number) => string;
}

/** Chinese text puts a space between characters and digits ("检查于 4 分钟前"), none before "刚刚". */
const spaceBeforeDigits = (text: string): string => (/^\d/.test(text) ? ` ${text}` : text);

export const SOURCE_HEALTH_WORDS: Record<Locale, SourceHealthWords> = {
  en: {
    notCheckedYet: 'not checked yet',
    checked: (ago) => `sources checked ${ago}`,
    answering: (answering, total) => `${answering} of ${total} answering`,
    failing: (failing) => `${failing} failing`,
    delayed: (ago) => `delayed: last check ${ago}`,
    separator: ', ',
    justNow: 'just now',
    minutesAgo: (minutes) => `${minutes} min ago`,
    hoursAgo: (hours) => `${hours} h ago`,
    daysAgo: (days) => `${days} d ago`,
  },
  zh: {
    notCheckedYet: '尚未检查来源',
    checked: (ago) => `来源检查于${spaceBeforeDigits(ago)}`,
    answering: (answering, total) => `${total} 个中 ${answering} 个有响应`,
    failing: (failing) => `${failing} 个失败`,
    delayed: (ago) => `已延迟：上次检查在${spaceBeforeDigits(ago)}`,
    separator: '，',
    justNow: '刚刚',
    minutesAgo: (minutes) => `${minutes} 分钟前`,
    hoursAgo: (hours) => `${hours} 小时前`,
    daysAgo: (days) => `${days} 天前`,
  },
};
