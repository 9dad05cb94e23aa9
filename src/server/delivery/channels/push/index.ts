import { z } from 'zod';
import { outboundAddress } from '../../../../core/outbound/address.ts';
import { isKnownPushService } from '../../../../core/outbound/push-services.ts';
import { encodePayload, pushPayload } from '../../../../core/push/payload.ts';
import type { Locale } from '../../../../core/vocabulary.ts';
import type { DeliveryChannel } from '../../channel.ts';
import { PUSH_TTL_SECONDS, sendPush } from './sender.ts';
import { readVapidKeys } from './vapid.ts';

/**
 * Browser push (RFC 8030/8291/8292; decisions.md "Push notifications"): the payload per language (src/core/push),
 * encrypted for each subscription and sent with the VAPID keys, which only this channel reads.
 */

/** The subscription's keys, its channel fields. */
const PushKeys = z.object({ p256dh: z.string(), auth: z.string() });

/** RFC 8030 `Topic`: 32 characters of URL-safe base64 naming the delivery (a hash of its id). */
async function topicOf(deliveryId: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(deliveryId)));
  return btoa(String.fromCharCode(...digest.slice(0, 24)))
    .replaceAll('+', '-')
    .replaceAll('/', '_');
}

export const pushChannel: DeliveryChannel = {
  name: 'push',
  ready: (env) => readVapidKeys(env) !== null,
  // A known push service's, or (the loopback switch on: the outbound policy let it through) a test's receiver.
  accepts: (address, rules) =>
    outboundAddress(address, rules).ok &&
    (isKnownPushService(address) || (rules.allowLoopbackReceiver && URL.parse(address)?.protocol === 'http:')),
  async sender({ event, transition, id }, { env, baseUrl, rules, now, fetcher }) {
    const vapid = readVapidKeys(env);
    if (vapid === null) throw new Error('the VAPID keys are not set');
    const payloads = new Map<Locale, string>();
    const payloadFor = (locale: Locale) => {
      if (!payloads.has(locale)) payloads.set(locale, encodePayload(pushPayload(event, transition, locale, baseUrl)));
      return payloads.get(locale)!;
    };
    const options = {
      ttl: PUSH_TTL_SECONDS,
      urgency: event.kind === 'reset' ? ('high' as const) : ('normal' as const),
      topic: await topicOf(id),
      allowLoopbackReceiver: rules.allowLoopbackReceiver,
    };
    return async (subscriber) => {
      const keys = PushKeys.safeParse(JSON.parse(subscriber.data));
      if (!keys.success) return { kind: 'failed', reason: 'its stored keys are unreadable' };
      const target = { endpoint: subscriber.address, ...keys.data };
      const outcome = await sendPush(target, payloadFor(subscriber.locale ?? 'en'), vapid, options, now, fetcher);
      return outcome.kind === 'sent' ? outcome : { ...outcome, reason: `the push service answered ${outcome.status}` };
    };
  },
};
