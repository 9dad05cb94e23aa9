import { z } from 'zod';
import { providerKindTopics } from '../../../../core/delivery/topics.ts';
import { EventKindSchema, ProviderSchema } from '../../../../core/enums.ts';
import { hookHeaders, hookPayload } from '../../../../core/hooks/payload.ts';
import { outboundAddress } from '../../../../core/outbound/address.ts';
import type { DeliveryChannel } from '../../channel.ts';
import { subscriberCap } from '../../caps.ts';
import { saveSubscriber } from '../../subscribers.ts';
import { retryAfterSeconds } from '../../../../core/http/retry-after.ts';
import { confirmsIntent } from '../websub/callback.ts';

/**
 * Signed webhooks for developers (decisions.md, "More channels"; the Standard Webhooks specification): a subscriber
 * is a URL that confirmed its intent as a WebSub callback does (a GET whose challenge it echoes), and each delivery
 * is the JSON payload (src/core/hooks/payload.ts) POSTed with `webhook-id` (the delivery's id, the same on every
 * retry), `webhook-timestamp` and `webhook-signature`, keyed with the subscriber's stored secret.
 */

const SEND_TIMEOUT_MS = 10_000;

/** The channel's fields of a subscriber: the key of its signatures (kept to sign; never answered again). */
const HookData = z.object({ secret: z.string() });

/** A `POST /api/hooks` accepted, travelling in a `verify` message until the URL echoes its challenge. */
export const HookVerifyRequest = z.object({
  url: z.string(),
  /** `{base_url}/api/hooks`: the `hub.topic` of the verification GET. */
  topic: z.string(),
  providers: z.array(ProviderSchema),
  kinds: z.array(EventKindSchema),
  secret: z.string(),
});
export type HookVerifyRequest = z.infer<typeof HookVerifyRequest>;

/** The stored secret of the hook at `url`, or `undefined` when there is none. */
export async function storedHookSecret(db: D1Database, url: string): Promise<string | undefined> {
  const row = await db
    .prepare(`SELECT data FROM subscribers WHERE channel = 'hooks' AND key = ?1`)
    .bind(url)
    .first<{ data: string }>();
  const data = row === null ? undefined : HookData.safeParse(JSON.parse(row.data));
  return data?.success ? data.data.secret : undefined;
}

export const hooksChannel: DeliveryChannel = {
  name: 'hooks',
  ready: () => true,
  accepts: (address, rules) => outboundAddress(address, rules).ok,
  async sender({ event, transition, id }, { baseUrl, rules, now, fetcher }) {
    const body = JSON.stringify(hookPayload(event, transition, baseUrl));
    return async (subscriber) => {
      const data = HookData.safeParse(JSON.parse(subscriber.data));
      if (!data.success) return { kind: 'gone', reason: 'its secret is unreadable' };
      if (!outboundAddress(subscriber.address, rules).ok) return { kind: 'gone', reason: 'its URL is not allowed' };
      // The wall clock, not the service's: a receiver checks the timestamp against its own clock (replays).
      const headers = await hookHeaders(data.data.secret, id, new Date(), body);
      try {
        const response = await fetcher(subscriber.address, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...headers },
          body,
          redirect: 'manual',
          signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
        });
        await response.body?.cancel();
        const { status } = response;
        if (status >= 200 && status < 300) return { kind: 'sent' };
        if (status === 410) return { kind: 'gone', reason: 'the receiver answered 410' };
        return {
          kind: 'retry',
          retryAfterSeconds: retryAfterSeconds(response.headers.get('retry-after'), now),
          reason: `the receiver answered ${status}`,
        };
      } catch {
        return { kind: 'retry', reason: 'no answer' };
      }
    };
  },
  /** As WebSub's (§5.3): the hook is stored only once its URL echoed the challenge; returns whether it did. */
  async verify(body, { env, rules, now, fetcher }) {
    const request = HookVerifyRequest.parse(body);
    const db = env.DB;
    if (db === undefined) throw new Error('the state database is not bound');
    const confirmed = await confirmsIntent(
      { mode: 'subscribe', topic: request.topic, callback: request.url },
      rules.allowLoopbackReceiver,
      fetcher,
    );
    if (!confirmed) return false;
    const write = {
      channel: 'hooks' as const,
      key: request.url,
      address: request.url,
      locale: null,
      data: { secret: request.secret },
      expiresAt: null,
      topics: providerKindTopics(request.providers, request.kinds),
    };
    if ((await saveSubscriber(db, write, subscriberCap('hooks', env.SUBSCRIBER_CAPS), now)) === 'full')
      console.warn('hooks is full: a verified hook was not made');
    return true;
  },
};
