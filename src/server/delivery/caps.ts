import type { ChannelName } from '../../core/delivery/channels.ts';

/**
 * Each channel's total cap per deployment (decisions.md, "Delivery that loses nothing"): a write past it is
 * `503 {"error":"<channel>_full"}`. The defaults bound what one reset costs a deployment: at 100,000 push subscribers
 * about 30,000 queue operations and minutes of sending on the Workers Paid plan that delivery needs (docs/performance.md,
 * "Delivery at scale"); `SUBSCRIBER_CAPS` (JSON) changes them per deployment.
 */
export const DEFAULT_SUBSCRIBER_CAPS: Readonly<Record<ChannelName, number>> = {
  push: 100_000,
  discord: 10_000,
  slack: 10_000,
  websub: 10_000,
  hooks: 10_000,
  ntfy: 10_000,
  telegram: 10_000,
};

/** The cap of `channel`: `SUBSCRIBER_CAPS`'s when it names a whole number ≥ 0 for it, else the default. */
export function subscriberCap(channel: ChannelName, setting: string | undefined): number {
  let configured: unknown;
  try {
    configured = setting === undefined ? undefined : (JSON.parse(setting) as Record<string, unknown>)[channel];
  } catch {
    console.error('SUBSCRIBER_CAPS is not JSON; the default caps hold');
  }
  if (typeof configured === 'number' && Number.isInteger(configured) && configured >= 0) return configured;
  return DEFAULT_SUBSCRIBER_CAPS[channel];
}
