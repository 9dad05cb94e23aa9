import type { DeliveryChannel } from '../channel.ts';
import { discordChannel, slackChannel } from './chat/index.ts';
import { hooksChannel } from './hooks/index.ts';
import { ntfyChannel } from './ntfy/index.ts';
import { pushChannel } from './push/index.ts';
import { telegramChannel } from './telegram/index.ts';
import { webSubChannel } from './websub/index.ts';

/**
 * Every channel of the delivery wing, by name: the one list a new channel is added to (docs/delivery.md, "A new
 * channel"). A subscriber's `channel` column names one of these.
 */
export const CHANNELS: readonly DeliveryChannel[] = [
  pushChannel,
  discordChannel,
  slackChannel,
  webSubChannel,
  hooksChannel,
  ntfyChannel,
  telegramChannel,
];

const BY_NAME = new Map<string, DeliveryChannel>(CHANNELS.map((channel) => [channel.name, channel]));

export const channelNamed = (name: string): DeliveryChannel | undefined => BY_NAME.get(name);
