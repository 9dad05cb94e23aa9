import type { chatConnected as english } from '../en/chat-connected.ts';

/** 连接 Discord 或 Slack Webhook 时发到该频道的那一条消息（见 en/chat-connected.ts）：纯数据，`{name}` 为占位符。 */
export const chatConnected: typeof english = {
  title: '已连接到 {service}',
  what: '{providers} 的每条新公告都会用中文发到这里，并附上它在看板上的链接和原帖链接。公告类型：{kinds}。',
  stop: '如需停止：在{board}的“通知我”中填入这个 Webhook 的地址，按“停止发送”；或者删除该 Webhook。',
  board: '看板',
  listSeparator: '、',
};
