import type { Forecast } from '../forecast/schemas.ts';
import { LANGUAGES, type Locale } from '../languages.ts';
import { wholeDuration } from '../time-format.ts';
import { percent } from './format.ts';
import { FILLED_WORDS } from './filled-words.ts';
import { day, minute, number, plural, text, wallMinute, weekdayMinute } from './words.ts';

/**
 * The words of one language in the shape the service's code reads them (`Translations`): its words with the shared
 * constants filled (filled-words.ts, made at build time), and the strings that take values as functions over `text`
 * and `plural` (words.ts). One shape for every language: a language is its data, never code.
 */

/** The words of `locale` in the service's shape. */
export function shape(locale: Locale) {
  const w = FILLED_WORDS[locale];
  const t = (key: Parameters<typeof text>[1], values?: Parameters<typeof text>[2]) => text(locale, key, values);
  const days = (value: number) => plural(locale, 'ui.days', value, {}, 1, true);
  return {
    ...w,
    sourceHealth: {
      ...w.sourceHealth,
      checked: (ago: string) =>
        ago === w.sourceHealth.justNow ? w.sourceHealth.checkedJustNow : t('sourceHealth.checked', { ago }),
      answering: (answering: number, total: number) => t('sourceHealth.answering', { answering, total }),
      failing: (failing: number) => t('sourceHealth.failing', { failing }),
      failingLong: (failing: number, minutes: number) => t('sourceHealth.failingLong', { failing, minutes }),
      delayed: (ago: string) => t('sourceHealth.delayed', { ago }),
      secondsAgo: (seconds: number) => t('sourceHealth.secondsAgo', { seconds }),
      minutesAgo: (minutes: number) => t('sourceHealth.minutesAgo', { minutes }),
      hoursAgo: (hours: number) => t('sourceHealth.hoursAgo', { hours }),
      daysAgo: (value: number) => t('sourceHealth.daysAgo', { days: value }),
    },
    forecast: {
      ...w.forecast,
      sentences: {
        cadence: (f: Forecast) =>
          t('forecast.sentences.cadence', {
            day: percent(f.probabilities['1d']),
            week: percent(f.probabilities['7d']),
            sampleSize: f.sampleSize,
          }),
        insufficient: (f: Forecast) =>
          f.sampleSize === 0
            ? t('forecast.sentences.insufficientNone')
            : plural(locale, 'forecast.sentences.insufficient', f.sampleSize),
        beyond_history: (f: Forecast) =>
          t('forecast.sentences.beyond_history', {
            elapsedDays: number(locale, f.elapsedDays ?? 0, 1, true),
            sampleSize: f.sampleSize,
          }),
        announced: (f: Forecast) => t('forecast.sentences.announced', { time: weekdayMinute(locale, f.announcedFor) }),
        teased: (f: Forecast) => t('forecast.sentences.teased', { time: weekdayMinute(locale, f.announcedFor) }),
        no_data: (_: Forecast) => w.forecast.sentences.no_data,
      },
    },
    markdown: {
      ...w.markdown,
      intro: (updatedAt: string) => t('markdown.intro', { updatedAt: minute(locale, updatedAt) }),
      lastReset: (at: string, ago: string) => t('markdown.lastReset', { at, ago }),
      estimateBasis: (median: string) => t('markdown.estimateBasis', { median }),
    },
    windowCalendar: {
      ...w.windowCalendar,
      calendarName: (provider: string) => t('windowCalendar.calendarName', { provider }),
      summary: {
        resetAt: (provider: string) => t('windowCalendar.summary.resetAt', { provider }),
        weeklyAt: (provider: string) => t('windowCalendar.summary.weeklyAt', { provider }),
      },
      description: {
        resetAt: (provider: string) => t('windowCalendar.description.resetAt', { provider }),
        weeklyAt: (provider: string) => t('windowCalendar.description.weeklyAt', { provider }),
      },
      timeZone: (tz: string) => t('windowCalendar.timeZone', { tz }),
      alarm: {
        resetAt: (provider: string) => t('windowCalendar.alarm.resetAt', { provider }),
        weeklyAt: (provider: string) => t('windowCalendar.alarm.weeklyAt', { provider }),
      },
    },
    tracker: {
      ...w.tracker,
      converted: (local: string, timeZone: string, utc: string) =>
        t('tracker.converted', { local: wallMinute(locale, local), timeZone, utc }),
      /** The calendar's language choices: each language by its own name. */
      languages: Object.fromEntries(LANGUAGES.map((language) => [language.code, language.name])) as Record<
        Locale,
        string
      >,
    },
    ui: {
      ...w.ui,
      scope: { global: w.ui.scope.global, plan: (name: string) => t('ui.scope.plan', { name }) },
      days,
      historyShow: (count: number) => plural(locale, 'ui.historyShow', count),
      trackShow: (count: number) => t('ui.trackShow', { count }),
      historyTruncated: (shown: number, total: number) =>
        t('ui.historyTruncated', { shown: number(locale, shown), total: number(locale, total) }),
      gapsDescription: (count: number) => t('ui.gapsDescription', { count }),
      trackMedian: (value: string) => t('ui.trackMedian', { value }),
      early: (amount: string) => t('ui.early', { amount }),
      late: (amount: string) => t('ui.late', { amount }),
      badgeAlt: (provider: string, status: string) => t('ui.badgeAlt', { provider, status }),
      aboutPage: { ...w.ui.aboutPage, intro: (service: string) => t('ui.aboutPage.intro', { service }) },
      apiPage: { ...w.ui.apiPage, mcpTools: (tools: string) => t('ui.apiPage.mcpTools', { tools }) },
      provenance: {
        ...w.ui.provenance,
        lag: (minutes: number) => {
          const { amount, unit } = wholeDuration(Math.abs(minutes));
          const values = { amount: number(locale, amount), unit: w.ui.provenance.lag.units[unit] };
          return t(minutes < 0 ? 'ui.provenance.lag.before' : 'ui.provenance.lag.after', values);
        },
      },
    },
    glance: {
      ...w.glance,
      /** One horizon, or both (the forecast has two: 24 hours and 7 days). */
      worseThanBaseRate: (horizons: string[], briers: string[], baseRates: string[]) =>
        horizons.length === 1
          ? t('glance.worseThanBaseRate', {
              horizon: horizons[0] ?? '',
              brier: briers[0] ?? '',
              baseRate: baseRates[0] ?? '',
            })
          : t('glance.worseThanBaseRateBoth', {
              horizonA: horizons[0] ?? '',
              horizonB: horizons[1] ?? '',
              brierA: briers[0] ?? '',
              brierB: briers[1] ?? '',
              baseRateA: baseRates[0] ?? '',
              baseRateB: baseRates[1] ?? '',
            }),
    },
    push: {
      ...w.push,
      title: (provider: string, kind: string) => t('push.title', { provider, kind }),
      scheduledTitle: (provider: string, kind: string) => t('push.scheduledTitle', { provider, kind }),
      effectiveTitle: (provider: string, kind: string) => t('push.effectiveTitle', { provider, kind }),
      scheduledFor: (time: string) => t('push.scheduledFor', { time }),
      inEffectSince: (time: string) => t('push.inEffectSince', { time }),
    },
    ntfy: {
      ...w.ntfy,
      choices: (providers: string, kinds: string) => t('ntfy.choices', { providers, kinds }),
      activationBody: (choices: string, url: string) => t('ntfy.activationBody', { choices, url }),
      pageAsk: (topic: string) => t('ntfy.pageAsk', { topic }),
    },
    forecastPage: {
      ...w.forecastPage,
      byDayDescription: (first: string, last: string) => t('forecastPage.byDayDescription', { first, last }),
      withinDays: (count: number) => plural(locale, 'forecastPage.withinDays', count),
      trackSince: (firstIso: string, checkpoints: number) =>
        plural(locale, 'forecastPage.trackSince', checkpoints, { since: day(locale, firstIso) }),
    },
    /** This language's forms of numbers and dates. */
    formats: {
      /** The patterns themselves, handed to the page scripts that write times in the reader's zone. */
      minutePattern: w.formats.minute,
      wallMinutePattern: w.formats.wallMinute,
      days,
      weekdayMinute: (iso: string | null) => weekdayMinute(locale, iso),
      minute: (iso: string) => minute(locale, iso),
    },
  };
}

/** The shape of every language's words. */
export type Translations = ReturnType<typeof shape>;
