/**
 * The delivery wing's channels by name (docs/delivery.md): what a subscriber's `channel` is, and the `<channel>` of
 * `503 {"error":"<channel>_full"}`. The server's registry (src/server/delivery/channels/index.ts) gives each its code.
 */
export const CHANNEL_NAMES = ['push', 'discord', 'slack', 'websub', 'hooks', 'ntfy', 'telegram'] as const;
export type ChannelName = (typeof CHANNEL_NAMES)[number];
