import type { boardAnswer as english } from '../en/board-answer.ts';

/** 看板对“何时重置”的回答与状态词说明（见 en/board-answer.ts）：纯数据，`{name}` 为占位符。 */
export const boardAnswer: typeof english = {
  announced: '已宣布将于 {time}重置，{relative}',
  teased: '已预告将于 {time}重置，{relative}，尚未确认',
  post: '原帖',
  likely: '可能在 {from}至 {to}之间',
  likelyBasis: '预测：取以往持续到现在这么久的等待中居中的一半',
  noWindow: '暂无可能的时间窗口：本次等待已长于近期的每一次间隔',
  estimateAhead: '节奏估计：{time}，{relative}',
  estimatePassed: '节奏估计已过：{time}',
  estimateNone: '节奏估计：历史记录不足',
  unconfirmed: '曾预告将于 {time}重置，{relative}，尚未确认',
  unconfirmedNoTime: '{relative}预告了重置，未给出时间，尚未确认',
  never: '暂无记录',
  legendHeading: '状态词说明',
  legend: {
    reset_now: '过去 24 小时内有一次重置生效。',
    tease: '上次重置之后，供应商宣布了稍后的重置，或在过去 {teaseDays} 天内（或为尚未到来的时间）预告了重置。',
    banked: '最新一条消息是储备重置卡：一次留待以后使用的重置。',
    overdue: '距上次重置的等待已超过最近 {resets} 次重置间隔中位数的 {overdueFactor} 倍。',
    waiting: '以上都不符合：等待仍在通常的节奏之内。',
    no_data: '该供应商尚无已发布的公告。',
  },
  live: '各行已于 {time}更新；页面打开期间每分钟自动更新。',
};
