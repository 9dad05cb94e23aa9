import type { Translations } from '../en/index.ts';
import { MEDIAN_BASIS_RESETS, MIN_FORECAST_GAPS } from '../../cadence.ts';
import type { Forecast } from '../../forecast/schemas.ts';
import { SERVICE_NAME } from '../../site.ts';
import { TIMELINE_LIMIT } from '../../api/query.ts';
import { FORECAST_HORIZONS } from '../../forecast/schemas.ts';
import { FEED_ITEM_LIMIT } from '../../render/feed-formats.ts';
import { OVERDUE_FACTOR } from '../../status-word.ts';
import { REMINDER_MINUTES_BEFORE } from '../../tracker/window-link.ts';
import { wholeDuration } from '../../time-format.ts';
import { percent } from '../format.ts';
import { forecastPage } from './forecast-page.ts';
import { notifyChannels } from './notify-channels.ts';
import { boardAnswer } from './board-answer.ts';
import { chatConnected } from './chat-connected.ts';
import { reviewPage } from './review-page.ts';
import { chineseMinute, chineseWallMinute, days, enumeration, weekdayMinute } from './format.ts';

const HORIZON_DAYS = enumeration(Object.values(FORECAST_HORIZONS));

/** Chinese text puts a space between characters and digits ("检查于 4 分钟前"), none before "刚刚". */
const spaceBeforeDigits = (text: string): string => (/^\d/.test(text) ? ` ${text}` : text);

/** Every user-facing word of the service in Chinese, in the shape of the English (`Translations`). */
export const zh: Translations = {
  sampleDataNotice: '示例数据：本站的所有公告都是虚构的，只用于演示看板如何运作，没有一条是真实的公告。',
  providers: { provider_a: '供应商 A', provider_b: '供应商 B', provider_c: '供应商 C' },
  kinds: { reset: '重置', banked: '储备重置卡', boost: '额度提升', promo: '促销', tease: '预告' },
  statuses: {
    reset_now: '刚刚重置',
    banked: '有储备重置卡',
    tease: '已预告',
    waiting: '等待中',
    overdue: '超过常规间隔',
    no_data: '暂无数据',
  },
  endpoints: {
    getStatus: '看板状态（JSON）',
    getProviderStatus: '单个供应商的状态（JSON）',
    getStatusText: '看板状态（纯文本，每个供应商一行，供状态栏和命令提示符使用）',
    getTimeline: '公告时间线（JSON）',
    getTimelineCsv: '公告时间线（CSV）',
    getFeedRss: 'RSS 2.0 订阅源',
    getFeedAtom: 'Atom 订阅源',
    getFeedJson: 'JSON Feed 1.1 订阅源',
    getWindowCalendar: '你自己的用量窗口提醒日历（iCalendar）',
    getAnnouncementCalendar: '全部公告与各供应商的节奏估计，供订阅（iCalendar）',
    getMarkdownEn: '本看板的 Markdown 版（英文）',
    getMarkdownZh: '本看板的 Markdown 版（中文）',
    postMcp: 'MCP 服务器（基于 HTTP POST 的 JSON-RPC 2.0）',
    getMcpServerCard: 'MCP 服务器卡片',
    getLlmsTxt: '给大语言模型的指引',
    getOpenApi: 'OpenAPI 3.1 接口描述',
    getBadgeSvg: '状态徽章（SVG）',
    getHistoryIndex: '完整历史，每个供应商每年一个文件',
    getEvent: '单条公告及其来历：记录时间、核实时间与提交（JSON）',
    getSources: '看板数据有多新：上次检查时各监视来源的情况（JSON）',
    getHealth: '服务各部分的运行状况，供运维人员查看（JSON）',
    getForecast: `${HORIZON_DAYS} 天内重置的可能性（JSON）`,
    getForecastTrackRecord: '预测的历史表现：布里尔分数与可靠性（JSON）',
    postChatWebhook: '把新公告发到 Discord 或 Slack 频道：Webhook 地址、供应商、公告类型、语言（JSON）',
    deleteChatWebhook: '停止向 Discord 或 Slack 的 Webhook 发送（JSON）',
    postWebSub: 'WebSub 中心：订阅源一有变化就推送到你的服务器（表单 POST）',
    postHook: '签名 Webhook：新公告以签名 JSON 推送到你的地址（Standard Webhooks）',
    deleteHook: '停止签名 Webhook：提供地址和密钥（JSON）',
  },
  sourceHealth: {
    notCheckedYet: '尚未检查来源',
    checked: (ago: string) => (ago === '刚刚' ? '来源刚刚检查过' : `来源检查于 ${ago}`),
    answering: (answering: number, total: number) => `${total} 个中 ${answering} 个有响应`,
    failing: (failing: number) => `${failing} 个失败`,
    failingLong: (failing: number, minutes: number) => `${failing} 个失败，其中有来源已失败超过 ${minutes} 分钟`,
    delayed: (ago: string) => `已延迟：上次检查在${spaceBeforeDigits(ago)}`,
    separator: '，',
    justNow: '刚刚',
    secondsAgo: (seconds: number) => `${seconds} 秒前`,
    minutesAgo: (minutes: number) => `${minutes} 分钟前`,
    hoursAgo: (hours: number) => `${hours} 小时前`,
    daysAgo: (days: number) => `${days} 天前`,
  },
  forecast: {
    sentences: {
      cadence: (f: Forecast) =>
        `根据最近 ${f.sampleSize} 次间隔：24 小时内重置的可能性为 ${percent(f.probabilities['1d'])}，7 天内为 ${percent(f.probabilities['7d'])}。`,
      insufficient: (f: Forecast) =>
        f.sampleSize === 0
          ? `暂无预测：尚未记录到重置间隔（至少需要 ${MIN_FORECAST_GAPS} 次）。`
          : `暂无预测：仅记录了 ${f.sampleSize} 次重置间隔（至少需要 ${MIN_FORECAST_GAPS} 次）。`,
      beyond_history: (f: Forecast) =>
        `暂无预测：距上次重置已过 ${(f.elapsedDays ?? 0).toFixed(1)} 天，不短于最近 ${f.sampleSize} 次间隔中的任何一次。`,
      announced: (f: Forecast) => `已宣布将于 ${weekdayMinute(f.announcedFor)}重置。`,
      teased: (f: Forecast) => `已预告将于 ${weekdayMinute(f.announcedFor)}重置，尚未确认。`,
      no_data: (_: Forecast) => '暂无数据。',
    },
    note: '这是过去重置间隔中的规律，不是供应商的计划：在近期的等待里，取持续时间达到本次等待长度的那些，看其中有多大比例在随后一天或一周内结束。',
    boardHeading: '近期重置的可能性',
  },
  markdown: {
    intro: (updatedAt: string) =>
      `三家 AI 编程工具供应商关于用量上限重置的官方公告，每条都链接到原帖，并附有下次重置的节奏估计。生成时间：${chineseMinute(updatedAt)}。本服务与各供应商无关联，数据按原样提供。`,
    statusHeading: '状态',
    noReset: '尚无重置记录',
    lastReset: (at: string, ago: string) => `上次重置：${at}，${ago}前`,
    estimateBasis: (median: string) =>
      `即上次重置时间加上最近 ${MEDIAN_BASIS_RESETS} 次重置间隔的中位数（${median}），并非供应商的时间表`,
    latestHeading: '最新公告',
    original: '原帖',
    permalink: '永久链接',
    none: '暂无公告。',
    endpointsHeading: '机器可读接口',
    punctuation: {
      between: '；',
      end: '。',
      afterTitle: '：',
      open: '（',
      close: '）',
      comma: '，',
      pathSeparator: '、',
      gap: '',
    },
    terms: '转载时请链接回本服务，并保留每条公告的原帖链接。',
  },
  windowCalendar: {
    calendarName: (provider: string) => `${SERVICE_NAME}：${provider} 用量窗口`,
    summary: {
      resetAt: (provider: string) => `${provider} 的 5 小时窗口重置`,
      weeklyAt: (provider: string) => `${provider} 的每周窗口重置`,
    },
    description: {
      resetAt: (provider: string) => `你在${provider} 的 5 小时用量窗口此时重置（按你输入的时间）。`,
      weeklyAt: (provider: string) => `你在${provider} 的每周用量窗口此时重置（按你输入的时间）。`,
    },
    notASchedule: '这是根据你自己的重置时间生成的提醒，不是供应商的时间表，也不是官方公告。',
    timeZone: (tz: string) => `时区：${tz}。`,
    alarm: {
      resetAt: (provider: string) => `${provider} 的 5 小时窗口将在 ${REMINDER_MINUTES_BEFORE} 分钟后重置`,
      weeklyAt: (provider: string) => `${provider} 的每周窗口将在 ${REMINDER_MINUTES_BEFORE} 分钟后重置`,
    },
  },
  tracker: {
    title: '窗口提醒',
    intro: `输入你自己的用量窗口重置时间，即可获得一份日历，每次重置前 ${REMINDER_MINUTES_BEFORE} 分钟提醒你。`,
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
    converted: (local: string, timeZone: string, utc: string) =>
      `${timeZone} 时间 ${chineseWallMinute(local)} 即 ${utc}`,
    notASchedule: '这些提醒来自你输入的时间，并非供应商的时间表。',
    problems: {
      time_zone: '无法识别该时区。请使用 IANA 时区名，例如 Asia/Shanghai。',
      reset_time: '你的时区里没有这个 5 小时窗口时间（可能正逢夏令时切换）。',
      weekly_time: '你的时区里没有这个每周窗口时间（可能正逢夏令时切换）。',
    },
    languages: { en: 'English', zh: '中文' },
  },
  /** The "Notify me" control on the board and provider pages (src/components/NotifyControl.astro). */
  notify: {
    heading: '通知我',
    intro: '你选择的供应商和类型一有新公告发布，浏览器就会通知你。',
    fallback: '浏览器通知需要 JavaScript 和支持网页推送的浏览器。不具备这些条件时，下面的其他方式照样可以通知你。',
    providers: '供应商',
    kinds: '公告类型',
    language: '语言',
    subscribe: '通知我',
    update: '保存我的选择',
    stop: '停止通知',
    privacy: '只保存此浏览器的推送地址和你的选择，从不保存 IP 地址。随时可以在这里停止。',
    status: {
      subscribed: '此浏览器的通知已开启。',
      saved: '已保存。有你选择的公告时会通知你。',
      stopped: '通知已关闭。',
      chooseProvider: '请至少选择一个供应商。',
      chooseKind: '请至少选择一种公告类型。',
      // The steps of "Notify me" and its failures, as in en/index.ts; `{detail}` is the browser's own words.
      asking: '浏览器正在询问是否允许本站发送通知：请回答它的提示。',
      subscribing: '正在为此浏览器订阅……',
      dismissed: '浏览器的提示未作回答就关闭了，因此没有订阅。按“通知我”可再次询问。',
      denied: '浏览器设置中已阻止本站的通知：请在本站的网站设置（地址栏旁的图标）中允许，然后再按“通知我”。',
      offline: '无法连接本站：请检查网络连接后再试。',
      pushService: '浏览器的推送服务未能为此浏览器订阅（{detail}）。请稍后再试，或改用订阅源。',
      busy: '更改太频繁：请一分钟后再试。',
      unavailable: '此服务器现在无法提供通知，请稍后再试。',
      refused: '服务器没有接受订阅（{detail}）。请稍后再试。',
      failed: '操作失败（{detail}），请稍后再试。',
    },
  },
  ui: {
    siteTagline: '三家 AI 编程工具供应商的官方用量上限重置公告，以及从其节奏推测的下一次重置。',
    nav: { board: '看板', tracker: '窗口提醒', api: '接口', about: '关于' },
    languageSwitch: 'English',
    languageSwitchLabel: '阅读本页英文版',
    skipToContent: '跳到正文',
    boardCaption: '各供应商的用量上限重置',
    columns: {
      provider: '供应商',
      status: '状态',
      lastReset: '上次重置',
      daysSince: '已过天数',
      nextEstimate: '下次重置',
      latestSignal: '最新动态',
    },
    estimateNote: `估计值为上次重置时间加上最近 ${MEDIAN_BASIS_RESETS} 次重置间隔的中位数；它反映的只是节奏，并非供应商的时间表。`,
    computedAt: '计算于',
    computedNote: '状态与相对时间在此刻计算；启用 JavaScript 时看板各行会自动保持最新，否则请刷新页面。',
    latestHeading: '最新公告',
    originalPost: '原帖',
    permalink: '永久链接',
    scope: { global: '所有用户', plan: (name: string) => `套餐：${name}` },
    effective: '生效于',
    feeds: '订阅源',
    statsHeading: '统计',
    stats: {
      totalResets: '已记录的重置',
      medianIntervalDays: `间隔中位数（最近 ${MEDIAN_BASIS_RESETS} 次）`,
      meanIntervalDays: '平均间隔',
      longestWaitDays: '最长等待',
      firstRecordedAt: '首次记录',
    },
    days,
    historyHeading: '历史',
    historyShow: (count: number) => `展开全部 ${count} 条公告`,
    trackShow: (count: number) => `展开每一次核对（${count} 次）`,
    historyTruncated: (shown: number, total: number) =>
      `此处显示 ${total} 条公告中最新的 ${shown} 条；全部公告见数据文件：`,
    hoursHeading: '重置公告的时段分布',
    hoursUtc: 'UTC 小时',
    hoursLocal: '你所在时区的小时',
    gapsHeading: '重置间隔',
    gapsMedian: '中位数',
    gapsOverdue: `常规间隔上限（中位数的 ${OVERDUE_FACTOR} 倍）`,
    gapsDescription: (count: number) => `相邻两次重置之间的 ${count} 个间隔（天），按时间先后排列。`,
    trackHeading: '估计的准确度',
    trackIntro: '对过去的每一次重置，按同样的规则算出它发生前一刻的估计，并列出偏差。',
    trackColumns: { reset: '重置', estimated: '当时的估计', error: '偏差' },
    trackMedian: (value: string) => `绝对误差中位数：${value}。`,
    trackEmpty: '历史尚不足以检验估计。',
    early: (amount: string) => `比估计早 ${amount}`,
    late: (amount: string) => `比估计晚 ${amount}`,
    onTime: '与估计一致',
    notFoundProvider: '未知的供应商',
    footerTerms:
      '数据按原样提供，不作任何保证。本服务与各供应商无关联。转载时请链接回本服务，并保留每条公告的原帖链接。',
    badge: '状态徽章',
    badgeAlt: (provider: string, status: string) => `${provider}：${status}`,
    /** Under each event (EventList.astro): the link to the repository's form for a wrong event. */
    reportEvent: '报告此公告的问题',
    /** Beside the badge on a provider page (BadgeEmbed.astro): the snippets that show it elsewhere. */
    badgeEmbed: {
      intro: '如需在 README 或网页中显示此徽章，请复制以下任一段代码：',
      markdown: 'Markdown',
      html: 'HTML',
      altStatus: '状态',
      copy: '复制',
      copied: '已复制。',
      copyFailed: '无法复制：请选中文字后手动复制。',
    },
    aboutPage: {
      intro: (service: string) =>
        `${service} 收录三家 AI 编程工具供应商关于账户级用量上限重置的官方公告（也包括储备重置卡、额度提升、促销与预告），每条都链接到原始的公开帖子。看板由这些公告推算得出：每家供应商的状态、统计数据，以及下一次重置的节奏估计（只是估计，不作承诺）。`,
      estimateHeading: '估计是什么',
      estimate: `下一次重置的估计 = 上次重置时间 + 最近 ${MEDIAN_BASIS_RESETS} 次重置间隔的中位数。它描述的是过去的节奏，不是供应商的时间表；估计时间已过只表示这一估计已过，并不说明下一次重置何时到来：这要看预测给出的可能的时间窗口和可能性。每个供应商页面都展示了该估计过去的准确度。`,
      sourcesHeading: '数据来源',
      sources:
        '每条公告在发布前都经过人工核对；本服务每隔几分钟检查一次上游账户。新公告以拉取请求（pull request）的形式加入项目仓库。',
      termsHeading: '使用条款',
      terms: [
        '本服务与各供应商无关联。',
        '数据按原样提供，不作任何保证。字段可能为空值（null），请做好处理。',
        '使用数据时请链接回本服务，并在转载时保留每条公告的原帖链接（sourceUrl）。',
        '所有接口免费、只读，无需密钥或注册。',
      ],
    },
    apiPage: {
      intro: '所有接口免费、只读、无需密钥，均带有 Access-Control-Allow-Origin: *。完整描述见 ',
      rate: '请将请求频率保持在每分钟一次以内；MCP 的限制为每个 IP 每分钟 60 次。',
      examplesHeading: '示例',
      request: '请求',
      what: '说明',
      examples: {
        status: '看板：每个供应商的状态、上次重置、估计与统计',
        providerStatus: '单个供应商；未知供应商返回 404 invalid_provider',
        timeline: `公告时间线，最新在前；provider、limit（${TIMELINE_LIMIT.min}–${TIMELINE_LIMIT.max}，默认 ${TIMELINE_LIMIT.default}）、format（json、csv）`,
        timelineCsv: 'RFC 4180 CSV',
        feed: `RSS 2.0，最新 ${FEED_ITEM_LIMIT} 条`,
        calendar: '可订阅的公告日历，附节奏估计',
        windowCalendar: '你自己用量窗口的提醒日历（见“窗口提醒”页）',
        markdown: '看板的 Markdown 版',
        forecast: `每个供应商 ${HORIZON_DAYS} 天内重置的可能性：过去间隔的规律，不是供应商的计划`,
      },
      mcpServer: 'MCP 服务器地址：',
      mcpTools: (tools: string) => `（JSON-RPC 2.0，POST；工具：${tools}）。服务器卡片：`,
      allHeading: '全部接口',
      errorsHeading: '错误',
      invalid: '无效参数返回 400：',
      unavailable: '数据源不可用时返回 500 internal_error。',
    },
    notFoundPage: { title: '未找到', text: '此处没有页面。看板在' },
    unavailablePage: {
      title: '暂时不可用',
      heading: '看板暂时不可用',
      text: '看板的数据暂时无法读取。请一分钟后再试；数据不会丢失。在此期间，机器可读接口返回 500 internal_error。',
    },
    hoursLocalShort: '本地',
    hoursAlso: '；启用脚本时另附',
    sourcesTimeBefore: '。检查时间：',
    sourcesTimeAfter: '',
    sourcesFailing: '无响应：',
    sourcesDetails: '各来源详情（JSON）',
    listSeparator: '、',
    sentenceEnd: '。',
    provenance: {
      recorded: '记录于',
      verified: '核实于',
      lag: (minutes: number) => {
        const { amount, unit } = wholeDuration(Math.abs(minutes));
        const words = { minutes: '分钟', hours: '小时', days: '天' }[unit];
        return `，即帖子发布${minutes < 0 ? '前' : '后'} ${amount} ${words}`;
      },
      commit: '提交',
      separator: '，',
    },
  },
  /** 一眼看清的看板（见 en/index.ts 的 `glance`）：时间已过却未见重置的预告、得分不如基准率的预测，以及手机上图表可横向滑动的提示。 */
  glance: {
    horizons: { '1d': '24 小时内', '7d': '7 天内' },
    worseThanBaseRate: (horizons: string[], briers: string[], baseRates: string[]) =>
      horizons.length === 1
        ? `迄今为止，${horizons[0]}重置可能性的预测表现不如基准率：其布里尔分数为 ${briers[0]}，基准率的布里尔分数为 ${baseRates[0]}（越低越好）。`
        : `迄今为止，${horizons.map((horizon, index) => (index === 0 ? horizon : spaceBeforeDigits(horizon))).join('和')}重置可能性的预测表现均不如基准率：其布里尔分数分别为 ${briers.join(' 和 ')}，基准率的布里尔分数分别为 ${baseRates.join(' 和 ')}（越低越好）。`,
    worseMark: '不如基准率',
    scrollCue: '左右滑动图表可查看全部 →',
  },
  /** Web Push 通知（src/core/push/payload.ts）：订阅者的浏览器显示的标题和正文。 */
  push: {
    title: (provider: string, kind: string) => `${provider}：${kind}`,
    scheduledTitle: (provider: string, kind: string) => `${provider}：${kind}已排定`,
    effectiveTitle: (provider: string, kind: string) => `${provider}：${kind}已生效`,
    scheduledFor: (time: string) => `定于 ${time}。`,
    inEffectSince: (time: string) => `自 ${time}起生效。`,
    separator: '',
  },
  /**
   * Discord and Slack messages (src/core/chat/message.ts): the title and body are push's; these name the links and
   * the moment beside them.
   */
  chat: {
    originalPost: '原帖',
    announced: '公布于',
    inEffect: '生效于',
    separator: ' · ',
  },
  ntfy: {
    listSeparator: '、',
    choices: (providers: string, kinds: string) => `将发送：${providers} 的每条新公告（${kinds}）。`,
    activationTitle: '激活 Departures Board 通知',
    activationBody: (choices: string, url: string) =>
      `有人请求将 Departures Board 的公告发送到此主题。${choices}打开并确认此链接之前，不会发送任何内容：${url}`,
    activate: '激活',
    pageTitle: '来自 Departures Board 的 ntfy 通知',
    pageAsk: (topic: string) => `将公告发送到 ntfy 主题 ${topic}？`,
    pageActivated: '已激活：新公告将发送到此主题。',
    pageUnknown: '此激活链接已失效。请在“通知我”中重新订阅该主题。',
  },
  /** The provider page's forecast section (src/components/ForecastSection.astro and its charts). */
  forecastPage,
  notifyChannels,
  boardAnswer,
  /** The one message a chat channel is sent when its webhook is connected (src/core/chat/connected-message.ts). */
  chatConnected,
  reviewPage,
  /** This locale's forms of numbers and dates. */
  formats: { days, weekdayMinute, minute: (iso: string) => chineseMinute(iso) },
};
