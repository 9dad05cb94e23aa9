import type { Translations } from '../en/index.ts';

/** The "Notify me" section's other channels in Chinese, in the shape of the English. */
export const notifyChannels: Translations['notifyChannels'] = {
  summaries: {
    browser: '在此浏览器中',
    chat: '在 Discord 或 Slack 频道中',
    ntfy: '用 ntfy 应用',
    telegram: '在 Telegram 中',
    feeds: '在订阅源阅读器中',
    calendars: '在日历中',
    terminal: '在终端或状态栏中',
    hooks: '在你的服务器上：签名 Webhook',
  },
  chat: {
    intro:
      '你选择的每条新公告都会用中文发到该频道，并附上本站的链接。请粘贴频道的 Webhook 地址：Discord 在频道设置 → 整合 → Webhook → 复制 Webhook URL；Slack 用某个应用的 Incoming Webhook。',
    url: 'Webhook 地址',
    connect: '连接',
    stop: '停止发送',
    privacy: '只保存 Webhook 地址、你的选择和语言，地址从不回显。用同一地址按“停止发送”，或删除该 Webhook，即可停止。',
    noScript: '没有 JavaScript，本页无法发送服务所需的 JSON。请改用 curl 发送，把示例地址换成你的 Webhook 地址：',
    noScriptStop: '停止：',
    status: {
      chooseProvider: '请至少选择一个供应商。',
      chooseKind: '请至少选择一种公告类型。',
      connecting: '正在连接……',
      created: '已连接：你选择的公告将发到这个 {platform} 频道。',
      replaced: '这个 {platform} Webhook 之前已连接：现已改为这些选择。',
      stopping: '正在停止……',
      stopped: '已停止：不会再向该 Webhook 发送任何内容。',
      badUrl: '本服务不会向该地址发送：{detail}',
      refused: '服务器没有接受（HTTP {status}）：{detail}',
      busy: '更改太频繁：请一分钟后再试。',
      unavailable: '此服务器现在无法向 Discord 和 Slack 发送，请稍后再试。',
      offline: '无法连接本站：请检查网络连接后再试。',
      failed: '操作失败（{detail}），请稍后再试。',
    },
  },
  telegram: {
    intro:
      '机器人会把你选择的每条新公告发到私聊、群组或频道，语言随你的 Telegram 语言（中文或英文），并附上本站的链接。',
    openBot: '打开机器人',
    noBot: '此服务器未配置 Telegram 机器人。',
    steps: '启动机器人（在群组或频道中请先添加它），然后发送以下任一命令：',
    subscribeHelp: '所有供应商的每次重置；写上供应商和类型即可自选',
    statusHelp: '当前看板',
    unsubscribeHelp: '停止',
    onTheBoard: '在看板上查看',
    bot: {
      start: '本机器人会把你选择的 AI 用量限额重置公告发到此聊天，每条一次，并附上看板上的链接。',
      usage:
        '命令：/subscribe <供应商> [类型]（供应商：{providers} 或 all；类型：{kinds}；默认 reset），/status（当前看板），/unsubscribe（停止）。',
      subscribed: '已订阅：{providers}。类型：{kinds}。发送 /unsubscribe 即可停止。',
      unsubscribed: '已退订：此聊天不会再收到任何消息。',
      listSeparator: '、',
    },
  },
  ntfy: {
    intro:
      '你选择的每条新公告都会以中文作为 ntfy 应用的通知发到手机或电脑：先让应用订阅一个主题（ntfy.sh 或你自己的服务器），再把主题地址发到这里。',
    subscribe: '用 curl 发送，把示例换成你的主题地址：',
    activation: '该主题会先收到一条带激活链接的消息；在你打开链接并点击“激活”之前，不会发送其他任何内容。',
    stop: '停止：',
  },
  feeds: {
    intro: '最新公告的 RSS、Atom 或 JSON Feed：',
    everyProvider: '所有供应商',
    websub: '支持 WebSub 的阅读器无需轮询，每有变化，中心就会立即推送：',
    developers: '开发者可以向该中心发送表单 POST（WebSub 第 5.1 节），为自己的服务器订阅任一订阅源；接口说明见',
    apiPage: '接口页面',
  },
  hooks: {
    intro:
      '面向开发者：你选择的每条新公告，以及每次重置生效之时，都会以 JSON 形式 POST 到你的 https 地址，并按 Standard Webhooks 规范在三个请求头中附上编号、时间戳与签名，可用该规范的任一库验证。',
    create:
      '用 curl 创建，把示例地址换成你的地址。你的地址须对一次 GET 原样返回其中的 hub.challenge 参数，在此之前不会发送任何内容。回复中含有为每次推送签名的密钥（whsec_…）：请妥善保存，它只显示这一次。',
    remove: '要停止，请发送地址及其密钥：',
  },
  calendars: {
    intro: '订阅全部公告和各供应商的节奏估计：把链接地址复制到日历应用中（菜单项通常叫“订阅日历”或“从 URL 添加”）。',
    everyProvider: '所有供应商',
    tracker: '在你自己的用量窗口重置之前提醒你：',
  },
  terminal: {
    intro: '每个供应商一行，字段以制表符分隔：供应商、状态词、距上次重置的天数、下次估计。',
    tmux: '在 tmux 状态栏中显示状态词：',
  },
};
