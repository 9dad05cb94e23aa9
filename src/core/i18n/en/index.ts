import { MEDIAN_BASIS_RESETS, MIN_FORECAST_GAPS } from '../../cadence.ts';
import type { Forecast } from '../../forecast/schemas.ts';
import { SERVICE_NAME } from '../../site.ts';
import { TIMELINE_LIMIT } from '../../api/query.ts';
import { FORECAST_HORIZONS } from '../../forecast/schemas.ts';
import { FEED_ITEM_LIMIT } from '../../render/feed-formats.ts';
import { OVERDUE_FACTOR } from '../../status-word.ts';
import { REMINDER_MINUTES_BEFORE } from '../../tracker/window-link.ts';
import { wholeDuration } from '../../time-format.ts';
import { percent, utcMinute } from '../format.ts';
import { forecastPage } from './forecast-page.ts';
import { notifyChannels } from './notify-channels.ts';
import { boardAnswer } from './board-answer.ts';
import { chatConnected } from './chat-connected.ts';
import { reviewPage } from './review-page.ts';
import { andList, days, weekdayMinute } from './format.ts';

const HORIZON_DAYS = andList(Object.values(FORECAST_HORIZONS));

/**
 * Every user-facing word of the service in English: labels, pages, Markdown, calendars, the tracker, the
 * endpoint listings and notifications. English is the reference: `Translations` is its shape, every other locale
 * (zh/index.ts) is typed with it, so a word added here and missing there is a type error.
 */
export const en = {
  sampleDataNotice:
    'Sample data: every event on this site is fictional, made up to show how the board works. None of it is a real announcement.',
  providers: { provider_a: 'Provider A', provider_b: 'Provider B', provider_c: 'Provider C' },
  kinds: { reset: 'Reset', banked: 'Banked reset', boost: 'Limit boost', promo: 'Promotion', tease: 'Tease' },
  statuses: {
    reset_now: 'Reset now',
    banked: 'Banked',
    tease: 'Teased',
    waiting: 'Waiting',
    overdue: 'Overdue',
    no_data: 'No data',
  },
  endpoints: {
    getStatus: 'Board status (JSON)',
    getProviderStatus: 'One provider’s status (JSON)',
    getStatusText: 'Board status as text, one line per provider, for status bars and prompts',
    getTimeline: 'Timeline of announcements (JSON)',
    getTimelineCsv: 'Timeline of announcements (CSV)',
    getFeedRss: 'RSS 2.0 feed',
    getFeedAtom: 'Atom feed',
    getFeedJson: 'JSON Feed 1.1',
    getWindowCalendar: 'A calendar of your own reset windows (iCalendar)',
    getAnnouncementCalendar: 'Every announcement and each estimate, to subscribe to (iCalendar)',
    getMarkdownEn: 'This board as Markdown (English)',
    getMarkdownZh: 'This board as Markdown (Chinese)',
    postMcp: 'MCP server (JSON-RPC 2.0 over HTTP POST)',
    getMcpServerCard: 'MCP server card',
    getLlmsTxt: 'Guide for language models',
    getOpenApi: 'OpenAPI 3.1 description',
    getBadgeSvg: 'Status badge (SVG)',
    getHistoryIndex: 'The whole history, one file per provider and year',
    getEvent: 'One event with its provenance: recorded, verified, commits (JSON)',
    getSources: 'How current the board is: the watched sources at the last check (JSON)',
    getHealth: "The service's health, part by part, for its operators (JSON)",
    getForecast: `Chance of a reset within ${HORIZON_DAYS} days (JSON)`,
    getForecastTrackRecord: 'How the forecast has held: Brier scores and reliability (JSON)',
    postChatWebhook:
      'Send new events to a Discord or Slack channel: its webhook URL, providers, kinds, language (JSON)',
    deleteChatWebhook: 'Stop sending to a Discord or Slack webhook (JSON)',
    postWebSub: 'WebSub hub: the feeds pushed to your server when they change (form POST)',
    postHook: 'Signed webhooks: new events POSTed to your URL as signed JSON (Standard Webhooks)',
    deleteHook: 'Stop a signed webhook: its URL and secret (JSON)',
  },
  /** The board's one line about its sources (src/core/sources.ts `sourceHealthLine`). */
  sourceHealth: {
    notCheckedYet: 'sources not checked yet',
    checked: (ago: string) => `sources checked ${ago}`,
    answering: (answering: number, total: number) => `${answering} of ${total} answering`,
    failing: (failing: number) => `${failing} failing`,
    failingLong: (failing: number, minutes: number) => `${failing} failing, one for over ${minutes} min`,
    delayed: (ago: string) => `delayed: last check ${ago}`,
    separator: ', ',
    justNow: 'just now',
    secondsAgo: (seconds: number) => `${seconds} s ago`,
    minutesAgo: (minutes: number) => `${minutes} min ago`,
    hoursAgo: (hours: number) => `${hours} h ago`,
    daysAgo: (days: number) => `${days} d ago`,
  },
  forecast: {
    sentences: {
      cadence: (f: Forecast) =>
        `${percent(f.probabilities['1d'])} chance of a reset within 24 h, ${percent(f.probabilities['7d'])} within 7 days (from the last ${f.sampleSize} gaps).`,
      insufficient: (f: Forecast) =>
        f.sampleSize === 0
          ? `No forecast yet: no gap between resets recorded (${MIN_FORECAST_GAPS} needed).`
          : `No forecast yet: only ${f.sampleSize} ${f.sampleSize === 1 ? 'gap' : 'gaps'} between resets recorded (${MIN_FORECAST_GAPS} needed).`,
      beyond_history: (f: Forecast) =>
        `No forecast: the ${(f.elapsedDays ?? 0).toFixed(1)} days since the last reset match or pass every one of the last ${f.sampleSize} gaps on record.`,
      announced: (f: Forecast) => `A reset is announced for ${weekdayMinute(f.announcedFor)}.`,
      teased: (f: Forecast) => `A reset is teased for ${weekdayMinute(f.announcedFor)}, not confirmed.`,
      no_data: (_: Forecast) => 'No data yet.',
    },
    note: 'A pattern in the past gaps between resets, not a vendor plan: of the recent waits that lasted as long as this one, the share that ended within the next day or week.',
    boardHeading: 'Chance of a reset soon',
  },
  markdown: {
    intro: (updatedAt: string) =>
      `Official usage-limit reset announcements of three AI coding-tool providers, each linked to its original post, with a cadence estimate of the next reset. Generated ${utcMinute(updatedAt)}. Not affiliated with the providers; data offered as is.`,
    statusHeading: 'Status',
    noReset: 'no reset recorded yet',
    lastReset: (at: string, ago: string) => `last reset ${at} (${ago} ago)`,
    estimateBasis: (median: string) =>
      `from the last reset plus the median gap of the last ${MEDIAN_BASIS_RESETS} resets (${median}), not a vendor schedule`,
    latestHeading: 'Latest announcements',
    original: 'original post',
    permalink: 'permalink',
    none: 'No announcements yet.',
    endpointsHeading: 'Machine-readable endpoints',
    /** Between a status line's parts, at its end, after a title or label, around an id, between links and paths. */
    punctuation: {
      between: '; ',
      end: '.',
      afterTitle: ': ',
      open: ' (',
      close: ')',
      comma: ', ',
      pathSeparator: ', ',
      /** After a mark that ends a sentence or a label, before what follows: none after a full-width mark. */
      gap: ' ',
    },
    terms: 'Please link back to the service and keep each event’s original post URL when republishing.',
  },
  windowCalendar: {
    calendarName: (provider: string) => `${SERVICE_NAME}: ${provider} usage windows`,
    summary: {
      resetAt: (provider: string) => `${provider} 5-hour window resets`,
      weeklyAt: (provider: string) => `${provider} weekly window resets`,
    },
    description: {
      resetAt: (provider: string) => `Your ${provider} 5-hour usage window resets now, at the time you entered.`,
      weeklyAt: (provider: string) => `Your ${provider} weekly usage window resets now, at the time you entered.`,
    },
    notASchedule: 'A reminder built from your own reset time: not a vendor schedule and not an announcement.',
    timeZone: (tz: string) => `Time zone: ${tz}.`,
    alarm: {
      resetAt: (provider: string) => `${provider} 5-hour window resets in ${REMINDER_MINUTES_BEFORE} minutes`,
      weeklyAt: (provider: string) => `${provider} weekly window resets in ${REMINDER_MINUTES_BEFORE} minutes`,
    },
  },
  tracker: {
    title: 'Window tracker',
    intro: `Enter when your own usage windows reset, and get a calendar with a reminder ${REMINDER_MINUTES_BEFORE} minutes before each.`,
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
    converted: (local: string, timeZone: string, utc: string) => `${local.replace('T', ' ')} in ${timeZone} is ${utc}`,
    notASchedule: 'These reminders come from the times you enter: they are not a vendor schedule.',
    problems: {
      time_zone: 'That time zone is unknown. Use an IANA name such as Europe/Berlin.',
      reset_time: 'That 5-hour window time does not exist in your time zone (a clock change?).',
      weekly_time: 'That weekly window time does not exist in your time zone (a clock change?).',
    },
    languages: { en: 'English', zh: '中文' },
  },
  /** The "Notify me" control on the board and provider pages (src/components/NotifyControl.astro). */
  notify: {
    heading: 'Notify me',
    intro:
      'Get a browser notification the moment an announcement is published, for the providers and kinds you choose.',
    fallback:
      'Browser notifications need JavaScript and a browser with web push. Without them, the other ways below still reach you.',
    providers: 'Providers',
    kinds: 'Announcements',
    language: 'Language',
    subscribe: 'Notify me',
    update: 'Save my choices',
    stop: 'Stop notifications',
    privacy: 'Kept: this browser’s push address and your choices, never your IP address. Stop here at any time.',
    status: {
      subscribed: 'Notifications are on in this browser.',
      saved: 'Saved. You will be notified of what you chose.',
      stopped: 'Notifications are off.',
      chooseProvider: 'Choose at least one provider.',
      chooseKind: 'Choose at least one kind of announcement.',
      // Each step of "Notify me", and each way it can fail, in the order a person meets them
      // (src/scripts/notify-control.ts); `{detail}` is the browser's own words.
      asking: 'Your browser is asking whether this site may send you notifications: answer its prompt.',
      subscribing: 'Subscribing this browser…',
      dismissed:
        'The browser’s prompt closed without an answer, so nothing was subscribed. Press “Notify me” to be asked again.',
      denied:
        'This site’s notifications are blocked in your browser’s settings: allow them in the site’s settings (the icon beside the address), then press “Notify me” again.',
      offline: 'This site could not be reached: check your connection, then try again.',
      pushService:
        'Your browser’s push service did not subscribe this browser ({detail}). Try again later, or follow a feed.',
      busy: 'Too many changes: try again in a minute.',
      unavailable: 'Notifications are not available on this server right now; try again later.',
      refused: 'The server did not take the subscription ({detail}). Please try again later.',
      failed: 'That did not work ({detail}). Please try again later.',
    },
  },
  ui: {
    siteTagline: 'Official usage-limit resets of three AI coding-tool providers, and what their cadence suggests.',
    nav: { board: 'Board', tracker: 'Window tracker', api: 'API', about: 'About' },
    languageSwitch: '中文',
    languageSwitchLabel: 'Read this page in Chinese',
    skipToContent: 'Skip to content',
    boardCaption: 'Usage-limit resets by provider',
    columns: {
      provider: 'Provider',
      status: 'Status',
      lastReset: 'Last reset',
      daysSince: 'Days since',
      nextEstimate: 'Next reset',
      latestSignal: 'Latest signal',
    },
    estimateNote: `Estimates are the last reset plus the median gap of the last ${MEDIAN_BASIS_RESETS} resets: a cadence, not a vendor schedule.`,
    computedAt: 'Computed',
    computedNote:
      'Status and relative times were computed at this moment; with JavaScript the board’s rows keep themselves current, without it reload for newer.',
    latestHeading: 'Latest announcements',
    originalPost: 'original post',
    permalink: 'permalink',
    scope: { global: 'everyone', plan: (name: string) => `plan: ${name}` },
    effective: 'effective',
    feeds: 'Feeds',
    statsHeading: 'Statistics',
    stats: {
      totalResets: 'Resets recorded',
      medianIntervalDays: `Median gap (last ${MEDIAN_BASIS_RESETS} resets)`,
      meanIntervalDays: 'Mean gap',
      longestWaitDays: 'Longest wait',
      firstRecordedAt: 'First recorded',
    },
    days,
    historyHeading: 'History',
    /** The folded archive's and the estimate's checks' summaries on a provider page: the answer and charts come first. */
    historyShow: (count: number) => `Show all ${count} ${count === 1 ? 'event' : 'events'}`,
    trackShow: (count: number) => `Show every check (${count})`,
    historyTruncated: (shown: number, total: number) =>
      `The newest ${shown.toLocaleString('en')} of ${total.toLocaleString('en')} announcements; every one is in the data files:`,
    hoursHeading: 'Reset announcements by hour of day',
    hoursUtc: 'UTC hours',
    hoursLocal: 'your local hours',
    gapsHeading: 'Gaps between resets',
    gapsMedian: 'median',
    gapsOverdue: `overdue line (${OVERDUE_FACTOR} × median)`,
    gapsDescription: (count: number) => `${count} gaps between consecutive resets, in days, oldest first.`,
    trackHeading: 'How the estimate has done',
    trackIntro:
      'For each past reset: what the estimate said just before it, by the same rules, and how far off it was.',
    trackColumns: { reset: 'Reset', estimated: 'Estimate said', error: 'Off by' },
    trackMedian: (value: string) => `Median absolute error: ${value}.`,
    trackEmpty: 'Not enough history yet to check the estimate.',
    /** How far off the estimate was, the amount a number of days (`4.8 days`). */
    early: (amount: string) => `${amount} early`,
    late: (amount: string) => `${amount} after the estimate`,
    onTime: 'on the estimate',
    notFoundProvider: 'Unknown provider',
    footerTerms:
      'Data as is, without warranty. Not affiliated with the providers. Link back and keep each event’s original post when republishing.',
    badge: 'Status badge',
    /** The badge image's alternative text: the provider and its status word. */
    badgeAlt: (provider: string, status: string) => `${provider}: ${status}`,
    /** Under each event (EventList.astro): the link to the repository's form for a wrong event. */
    reportEvent: 'Report a problem with this event',
    /** Beside the badge on a provider page (BadgeEmbed.astro): the snippets that show it elsewhere. */
    badgeEmbed: {
      intro: 'To show it in a README or on a web page, copy one of these:',
      markdown: 'Markdown',
      html: 'HTML',
      /** After the provider's name in the snippets' alternative text: "Provider A status". */
      altStatus: 'status',
      copy: 'Copy',
      copied: 'Copied.',
      copyFailed: 'Could not copy: select the text and copy it.',
    },
    aboutPage: {
      intro: (service: string) =>
        `${service} publishes the official announcements about account-wide usage-limit resets of three AI coding-tool providers (and banked reset cards, limit boosts, promotions and teases), each linked to its original public post, and derives a board from them: a status per provider, statistics, and an honest cadence estimate of the next reset.`,
      estimateHeading: 'What the estimate is',
      estimate: `The next reset estimate is the last reset plus the median gap between the last ${MEDIAN_BASIS_RESETS} resets. It describes a past cadence, not a vendor schedule; an estimate in the past has passed, which says nothing about when the next reset comes: for that, read the forecast’s likely window and chances. Each provider page shows how well the estimate has done.`,
      sourcesHeading: 'Where the data comes from',
      sources:
        'Every announcement is checked by hand before it is published; the upstream accounts are polled every few minutes. New announcements arrive as pull requests to the project’s repository.',
      termsHeading: 'Terms of use',
      terms: [
        'The service is not affiliated with the providers.',
        'The data is offered as is, without warranty. Tolerate null fields.',
        'When you use the data, link back to the service, and keep each event’s original post URL (sourceUrl) when republishing.',
        'Every endpoint is free and read-only, with no key or sign-up.',
      ],
    },
    apiPage: {
      intro:
        'Every endpoint is free, read-only, needs no key and carries Access-Control-Allow-Origin: *. The full description is ',
      rate: ' Please stay at or below one request per minute; MCP allows 60 requests per minute per IP.',
      examplesHeading: 'Examples',
      request: 'Request',
      what: 'What',
      examples: {
        status: 'The board: status, last reset, estimate and statistics per provider',
        providerStatus: 'One provider; an unknown one is 404 invalid_provider',
        timeline: `Announcements, newest first; provider, limit (${TIMELINE_LIMIT.min}–${TIMELINE_LIMIT.max}, default ${TIMELINE_LIMIT.default}), format (json, csv)`,
        timelineCsv: 'RFC 4180 CSV',
        feed: `RSS 2.0, the latest ${FEED_ITEM_LIMIT}`,
        calendar: 'A calendar of announcements and estimates to subscribe to',
        windowCalendar: 'Reminders for your own windows (see the window tracker)',
        markdown: 'The board as Markdown',
        forecast: `Chance of a reset within ${HORIZON_DAYS} days per provider: a pattern in past gaps, not a vendor plan`,
      },
      mcpServer: 'The MCP server: ',
      mcpTools: (tools: string) => ` (JSON-RPC 2.0 over POST; tools ${tools}). Server card: `,
      allHeading: 'All endpoints',
      errorsHeading: 'Errors',
      invalid: 'Invalid parameters are 400:',
      unavailable: 'an unavailable data source is 500 internal_error.',
    },
    notFoundPage: { title: 'Not found', text: 'There is no page here. The board is at' },
    unavailablePage: {
      title: 'Temporarily unavailable',
      heading: 'The board is temporarily unavailable',
      text: 'Its data could not be read just now. Please try again in a minute; nothing is lost. The machine-readable endpoints answer 500 internal_error meanwhile.',
    },
    hoursLocalShort: 'local',
    hoursAlso: '; with scripts on, also',
    /** Around the time of the sources' last check (a <time> element between them), after the sources line. */
    sourcesTimeBefore: ' (',
    sourcesTimeAfter: ')',
    sourcesFailing: 'Not answering:',
    sourcesDetails: 'every source (JSON)',
    listSeparator: ', ',
    sentenceEnd: '.',
    provenance: {
      recorded: 'recorded',
      verified: 'verified',
      lag: (minutes: number) => {
        const { amount, unit } = wholeDuration(Math.abs(minutes));
        const words = { minutes: 'min', hours: 'h', days: 'd' }[unit];
        return `(${amount} ${words} ${minutes < 0 ? 'before' : 'after'} the post)`;
      },
      commit: 'commit',
      separator: ', ',
    },
  },
  /**
   * The board at a glance (decisions.md, "The board on a phone"): words that keep a row honest (the rules are in
   * src/core/upcoming-reset.ts and src/core/forecast/skill.ts): a live tease whose time passed without a reset, and a
   * forecast that has scored worse than its base rate, said beside the number on the board and the provider page;
   * and the cue of a chart that scrolls inside its frame on a phone.
   */
  glance: {
    horizons: { '1d': '24 h', '7d': '7-day' },
    worseThanBaseRate: (horizons: string[], briers: string[], baseRates: string[]) =>
      horizons.length === 1
        ? `So far the ${horizons[0]} chance has scored worse than the base rate (Brier ${briers[0]} against the base rate’s ${baseRates[0]}; lower is better).`
        : `So far the ${horizons.join(' and ')} chances have scored worse than the base rate (Brier ${briers.join(' and ')} against the base rate’s ${baseRates.join(' and ')}; lower is better).`,
    worseMark: 'worse than the base rate',
    /** Under a chart wider than a phone, which scrolls inside its own frame. */
    scrollCue: 'Swipe the chart sideways to see all of it →',
  },
  /** Web Push notifications (src/core/push/payload.ts): the title and body a subscriber's browser shows. */
  push: {
    title: (provider: string, kind: string) => `${provider}: ${kind}`,
    scheduledTitle: (provider: string, kind: string) => `${provider}: ${kind} scheduled`,
    effectiveTitle: (provider: string, kind: string) => `${provider}: ${kind} now`,
    scheduledFor: (time: string) => `Scheduled for ${time}.`,
    inEffectSince: (time: string) => `In effect since ${time}.`,
    separator: ' ',
  },
  /**
   * Discord and Slack messages (src/core/chat/message.ts): the title and body are push's; these name the links and
   * the moment beside them.
   */
  chat: {
    originalPost: 'Original post',
    announced: 'Announced',
    inEffect: 'In effect',
    separator: ' · ',
  },
  /** ntfy (src/core/ntfy/ntfy.ts): the activation message and page. */
  ntfy: {
    listSeparator: ', ',
    choices: (providers: string, kinds: string) =>
      `What will be sent: each new announcement of ${providers} (${kinds}).`,
    activationTitle: 'Activate Departures Board notifications',
    activationBody: (choices: string, url: string) =>
      `Someone asked to send Departures Board announcements to this topic. ${choices} Nothing is sent until this link is opened and confirmed: ${url}`,
    activate: 'Activate',
    pageTitle: 'ntfy notifications from Departures Board',
    pageAsk: (topic: string) => `Send announcements to the ntfy topic ${topic}?`,
    pageActivated: 'Activated: new announcements will be sent to this topic.',
    pageUnknown: 'This activation link is not valid any more. Subscribe the topic again under “Notify me”.',
  },
  /** The provider page's forecast section (src/components/ForecastSection.astro and its charts). */
  forecastPage,
  /** "Notify me"'s channels beside browser push: Discord and Slack, feeds and WebSub, calendars, the terminal. */
  notifyChannels,
  /** The board's one answer to "when" per row, and the legend of its status words (src/core/board-answer.ts). */
  boardAnswer,
  /** The one message a chat channel is sent when its webhook is connected (src/core/chat/connected-message.ts). */
  chatConnected,
  /** The review page of a draft: confirm, reject, withdraw, and every refusal (src/core/review/page.ts). */
  reviewPage,
  /** This locale's forms of numbers and dates. */
  formats: { days, weekdayMinute, minute: utcMinute },
};

/** The shape of every locale's words (src/core/i18n/<locale>/index.ts). */
export type Translations = typeof en;
