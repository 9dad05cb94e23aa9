import type { reviewPage as english } from '../en/review-page.ts';

/** 审核页（`/review/<草稿 id>`，见 en/review-page.ts）：纯数据，`{name}` 为占位符。 */
export const reviewPage: typeof english = {
  title: '审核草稿',
  intro:
    '监视程序发现了这条帖子，并把它起草成一条公告。请对照原帖核对；如有需要，修改公告类型、范围或生效时间，然后确认或拒绝。',
  draftId: '草稿 {id}',
  originalPost: '原帖',
  openOriginal: '打开原帖',
  postSummary: '帖子内容',
  fieldsHeading: '公告',
  fields: {
    id: 'ID',
    provider: '供应商',
    kind: '公告类型',
    scope: '范围',
    announcedAt: '发布时间',
    effectiveAt: '生效时间',
    sourceAccount: '账号',
    sourceUrl: '原帖',
    summary: '摘要',
    audience: '受众',
    verified: '已核实',
  },
  scopeHint: '“global”（所有用户），或“plan:”加套餐名（小写），例如 plan:pro。',
  effectiveAtHint: '帖子没有写明之后的生效时间时留空；否则填写带毫秒的 UTC 时间，例如 2026-06-15T18:00:00.000Z。',
  none: '（无）',
  confirm: '确认并发布',
  confirmHint: '确认后，这条公告立即出现在看板和所有订阅源中，并通知所有渠道。',
  reject: '拒绝',
  rejectHint: '拒绝后草稿作废，这条帖子不会再被提议。',
  linkLives: '此链接可用到 {time}，只能使用一次。',
  invalidHeading: '修改后的公告无效，未做任何更改。请修正下面标出的字段：',
  labelled: '{label}（{name}）',
  issue: '{field}：{message}',
  otherField: '公告',
  outcome: {
    confirmed: '已确认：已发布，接下来写入 git。',
    providerPage: '供应商页面',
    eventJson: '这条公告的 JSON',
    withdrawHint: '确认错了？在此链接有效期内可以撤回：公告会从所有输出中移除，也不会提交。',
    withdraw: '撤回',
    inGit: '已确认，现已写入 git（提交 {commit}）：如需更正，请提交拉取请求。',
    inBuild: '已确认，现已包含在网站的构建中：如需更正，请提交拉取请求。',
    withdrawn: '已撤回：这条公告已从所有输出中移除，其文件不会被提交。',
    rejected: '已拒绝：这条帖子不会再被提议。',
  },
  refused: {
    wrong: {
      title: '此链接无效',
      body: '链接中的令牌不属于这份草稿：链接被改动或被截断了。请从审核消息中重新打开完整的链接。',
    },
    expired: {
      title: '此链接已过期',
      body: '审核链接的有效期为 24 小时。请使用审核消息中的另一个链接：它在仓库的编辑器中打开文件，不会过期。',
    },
    used: {
      title: '此链接已使用过',
      body: '一个审核链接只能做一次决定，而这份草稿已有决定。本次未做任何更改。',
    },
    unknown: {
      title: '没有这份草稿',
      body: '没有草稿使用这个 ID：链接有误，或者草稿的帖子已由构建发布，草稿已被移除。',
    },
    off: {
      title: '此部署未启用审核链接',
      body: '此部署没有设置 REVIEW_SIGNING_KEY，因此不生成也不接受审核链接。请使用审核消息中打开仓库编辑器的链接。',
    },
    unavailable: {
      title: '暂时不可用',
      body: '现在无法连接状态数据库，或此部署没有状态数据库。未做任何更改；请一分钟后再试。',
    },
    crossSite: {
      title: '已拒绝：不是从本页提交的',
      body: '表单来自其他网站（{origin}），因此未被接受。请自己打开审核链接，在那里按下按钮。',
    },
    notForm: {
      title: '已拒绝：不是表单',
      body: '本页只接受它自己的表单（application/x-www-form-urlencoded，最多 16 KiB）。请打开审核链接，使用其中的按钮。',
    },
    badAction: {
      title: '已拒绝：没有这个操作',
      body: '表单请求了本页不提供的操作。请打开审核链接，使用其中的按钮。',
    },
    olderThanLatest: {
      title: '这条重置无法在此发布',
      body: '它的生效时间早于看板上该供应商最近一次重置，现在发布会打乱历史记录。本次未做任何更改。请通过审核消息中打开仓库编辑器的链接提议它：构建会重新计算全部历史。',
    },
    notWithdrawable: {
      title: '这条公告现在无法撤回',
      body: '只有在本页确认、尚未写入 git 的公告才能撤回。文件正在提交时，请几秒钟后再试；写入 git 之后，更正请通过拉取请求进行。',
    },
  },
  stateNow: '当前状态：{state}',
  backToDraft: '返回草稿',
  otherLanguage: 'English',
};
