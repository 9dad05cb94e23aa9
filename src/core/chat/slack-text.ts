/**
 * Text inside a Slack message (Slack's "Formatting text for app surfaces"): in `mrkdwn` and in a message's `text`,
 * `&`, `<` and `>` are control characters and must be escaped as their three documented entities; a URL inside a
 * link `<url|label>` must not carry `|`, `<` or `>` (percent-encoded here, which names the same URL).
 */
export const slackText = (text: string): string =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

export const slackUrl = (url: string): string =>
  url.replaceAll('|', '%7C').replaceAll('>', '%3E').replaceAll('<', '%3C');

/** A link in mrkdwn: `<url|label>`, both made safe. */
export const slackLink = (url: string, label: string): string => `<${slackUrl(url)}|${slackText(label)}>`;
