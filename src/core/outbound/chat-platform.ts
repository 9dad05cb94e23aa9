/**
 * Which chat platform a webhook address belongs to (decisions.md, "Chat webhooks"): a Discord webhook
 * (`https://discord.com/api/webhooks/<id>/<token>`, also `discordapp.com`) or a Slack incoming webhook
 * (`https://hooks.slack.com/services/…`). Called on an address the outbound-address policy already accepted
 * (address.ts); the tests' receiver on loopback (allowed only by that policy's loopback switch) is told apart by
 * the same paths.
 */

export const CHAT_PLATFORMS = ['discord', 'slack'] as const;
export type ChatPlatform = (typeof CHAT_PLATFORMS)[number];

const DISCORD_HOSTS = new Set(['discord.com', 'discordapp.com']);
const SLACK_HOSTS = new Set(['hooks.slack.com']);
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost']);

export function chatPlatformOf(address: string): ChatPlatform | null {
  const url = URL.parse(address);
  if (url === null) return null;
  const loopback = url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
  if ((DISCORD_HOSTS.has(url.hostname) || loopback) && /^\/api\/webhooks\/[^/]+\/[^/]+\/?$/.test(url.pathname))
    return 'discord';
  if ((SLACK_HOSTS.has(url.hostname) || loopback) && /^\/services\/[^/]+\/[^/]+\/[^/]+\/?$/.test(url.pathname))
    return 'slack';
  return null;
}
