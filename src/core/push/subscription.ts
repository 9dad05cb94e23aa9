import { z } from 'zod';
import { lazySchema } from '../lazy-schema.ts';
import { EventKindSchema, ProviderSchema } from '../enums.ts';
import {
  DEFAULT_OUTBOUND_RULES,
  isLoopbackReceiver,
  type OutboundRules,
  outboundAddress,
  parseAddress,
} from '../outbound/address.ts';
import { addressLookupSchema, outboundAddressSchema } from '../outbound/address-schema.ts';
import { isKnownPushService, UNKNOWN_PUSH_SERVICE_MESSAGE } from '../outbound/push-services.ts';
import { LOCALES } from '../vocabulary.ts';
import { AUTH_BYTES, decodeBase64Url, isP256PublicKey, P256DH_BYTES } from './subscriber-keys.ts';

/**
 * The push write path's bodies (decisions.md, "Push notifications"): what `POST /api/push/subscriptions` and
 * `DELETE /api/push/subscriptions` accept, and what the POST answers. The endpoint is an outbound address
 * (src/core/outbound): it parses into its stored form, so every spelling of one endpoint is one subscription; and
 * it is on a known Web Push service (src/core/outbound/push-services.ts). The OpenAPI document describes the
 * default rules (no loopback receiver).
 *
 * The subscribe schema checks the browser's key with Web Crypto, which is asynchronous: parse it with
 * `safeParseAsync`.
 */

/** The largest body the write path reads (a bigger one is a bad body). */
export const PUSH_BODY_MAX_BYTES = 4096;

const sizeMessage = (bytes: number, what: string) => `must be ${what}: ${bytes} bytes, base64url-encoded`;

/** The browser's ECDH public key: 65 bytes, and a point on P-256 (a length alone lets 65 random bytes through). */
const p256dhSchema = z.string().superRefine(async (text, context) => {
  const bytes = decodeBase64Url(text);
  if (bytes?.length !== P256DH_BYTES)
    context.addIssue({ code: 'custom', message: sizeMessage(P256DH_BYTES, 'an uncompressed P-256 public key') });
  else if (!(await isP256PublicKey(bytes)))
    context.addIssue({
      code: 'custom',
      message: 'must be a point on the P-256 curve, uncompressed (the browser’s ECDH public key)',
    });
});

const authSchema = z
  .string()
  .refine(
    (text) => decodeBase64Url(text)?.length === AUTH_BYTES,
    sizeMessage(AUTH_BYTES, 'the subscription’s authentication secret'),
  );

/**
 * `PushSubscriptionJSON.expirationTime` (Push API): when the push service will end the subscription, in
 * milliseconds since the epoch (an `EpochTimeStamp`, a whole number), or null for no end. Kept: nothing is sent
 * to a subscription past it.
 */
const expirationTimeSchema = z
  .int()
  .min(0)
  .nullable()
  .optional()
  .describe('when the push service ends the subscription, ms since the epoch (PushSubscription.expirationTime)');

const uniqueNonEmpty = <T extends z.ZodType>(item: T, what: string) =>
  z
    .array(item)
    .min(1, `choose at least one ${what}`)
    .refine((items) => new Set(items).size === items.length, `each ${what} at most once`);

/**
 * The topics and language a subscriber chooses, as every channel's write body takes them (decisions.md: push, and
 * the chat webhooks "as push").
 */
export const TOPIC_FIELDS = {
  providers: uniqueNonEmpty(ProviderSchema, 'provider'),
  kinds: uniqueNonEmpty(EventKindSchema, 'kind').default(['reset']),
  locale: z.enum(LOCALES).default('en'),
};

/**
 * A push endpoint: an outbound address (its issue says which rule it breaks) on a known Web Push service (decisions.md,
 * "Delivery that loses nothing"), or, under the loopback test switch, the tests' receiver on this machine. One issue
 * per endpoint: the service is judged only once the address itself passes.
 */
const pushEndpointSchema = (rules: OutboundRules) =>
  outboundAddressSchema(rules).superRefine((endpoint, context) => {
    if (!outboundAddress(endpoint, rules).ok || isKnownPushService(endpoint)) return;
    const url = parseAddress(endpoint);
    if (rules.allowLoopbackReceiver && url !== undefined && isLoopbackReceiver(url)) return;
    context.addIssue({ code: 'custom', message: UNKNOWN_PUSH_SERVICE_MESSAGE });
  });

/** `POST /api/push/subscriptions`'s body under `rules` (the setting of the loopback test receiver). */
export const subscribeRequestSchema = (rules: OutboundRules) =>
  z.object({
    subscription: z.object({
      endpoint: pushEndpointSchema(rules),
      expirationTime: expirationTimeSchema,
      keys: z.object({ p256dh: p256dhSchema, auth: authSchema }),
    }),
    ...TOPIC_FIELDS,
  });

export const SubscribeRequestSchema = lazySchema(() =>
  subscribeRequestSchema(DEFAULT_OUTBOUND_RULES).meta({
    id: 'PushSubscribeRequest',
  }),
);
export type SubscribeRequest = z.infer<typeof SubscribeRequestSchema>;

/**
 * `DELETE /api/push/subscriptions`'s body: the endpoint to forget (any string: an unknown one is no error), in the
 * stored form, so that any spelling of a stored endpoint forgets it.
 */
export const UnsubscribeRequestSchema = z
  .object({ endpoint: addressLookupSchema })
  .meta({ id: 'PushUnsubscribeRequest' });

/** What the POST answers: the topics and language now stored for the endpoint. */
export const SubscriptionTopicsSchema = z
  .strictObject({
    providers: z.array(ProviderSchema),
    kinds: z.array(EventKindSchema),
    locale: z.enum(LOCALES),
  })
  .meta({ id: 'PushSubscriptionTopics' });
export type SubscriptionTopics = z.infer<typeof SubscriptionTopicsSchema>;

/** `GET /api/push/key`: the VAPID public key (RFC 8292) a browser passes as `applicationServerKey`. */
export const PushKeySchema = lazySchema(() =>
  z
    .strictObject({ publicKey: z.string().describe('the VAPID public key: an uncompressed P-256 point, base64url') })
    .meta({ id: 'PushKey' }),
);
