import { z } from 'zod';
import { EventKindSchema, ProviderSchema } from '../enums.ts';
import { LOCALES } from '../vocabulary.ts';
import { type EndpointProblem, type EndpointRules, endpointProblem } from './endpoint-rules.ts';

/**
 * The push write path's bodies (decisions.md, "Push notifications"): what `POST /api/push/subscriptions` and
 * `DELETE /api/push/subscriptions` accept, and what the POST answers. The OpenAPI document describes the default
 * rules (no loopback receiver).
 */

/** The largest body the write path reads (a bigger one is a bad body). */
export const PUSH_BODY_MAX_BYTES = 4096;
export const PUSH_ENDPOINT_MAX_LENGTH = 2048;

/** RFC 8291: the browser's P-256 public key, uncompressed (65 bytes), and its 16-byte authentication secret. */
const P256DH_BYTES = 65;
const AUTH_BYTES = 16;

const BASE64URL = /^[A-Za-z0-9_-]*={0,2}$/;

/** The number of bytes a base64url text decodes to, or -1 when it is not base64url. */
function base64UrlBytes(text: string): number {
  if (!BASE64URL.test(text)) return -1;
  const length = text.replace(/=+$/, '').length;
  if (length % 4 === 1) return -1;
  return Math.floor((length * 3) / 4);
}

const keyOfBytes = (bytes: number, what: string) =>
  z.string().refine((text) => base64UrlBytes(text) === bytes, `must be ${what}: ${bytes} bytes, base64url-encoded`);

const ENDPOINT_MESSAGES: Record<EndpointProblem, string> = {
  not_a_url: 'must be an absolute URL',
  not_https: 'must be an https URL',
  credentials: 'must not carry a user name or password',
  ip_literal: 'must name a push service by its host name, not an IP address',
  private_name: 'must be a public push service, not a local, loopback or private name',
};

const endpointSchema = (rules: EndpointRules) =>
  z
    .string()
    .max(PUSH_ENDPOINT_MAX_LENGTH)
    .superRefine((endpoint, context) => {
      const problem = endpointProblem(endpoint, rules);
      if (problem !== undefined) context.addIssue({ code: 'custom', message: ENDPOINT_MESSAGES[problem] });
    });

const uniqueNonEmpty = <T extends z.ZodType>(item: T, what: string) =>
  z
    .array(item)
    .min(1, `choose at least one ${what}`)
    .refine((items) => new Set(items).size === items.length, `each ${what} at most once`);

/** `POST /api/push/subscriptions`'s body under `rules` (the setting of the loopback test receiver). */
export const subscribeRequestSchema = (rules: EndpointRules) =>
  z.object({
    subscription: z.object({
      endpoint: endpointSchema(rules),
      // What `PushSubscription.toJSON()` also carries; accepted and not stored.
      expirationTime: z.number().nullable().optional(),
      keys: z.object({
        p256dh: keyOfBytes(P256DH_BYTES, 'an uncompressed P-256 public key'),
        auth: keyOfBytes(AUTH_BYTES, 'the subscription’s authentication secret'),
      }),
    }),
    providers: uniqueNonEmpty(ProviderSchema, 'provider'),
    kinds: uniqueNonEmpty(EventKindSchema, 'kind').default(['reset']),
    locale: z.enum(LOCALES).default('en'),
  });

export const SubscribeRequestSchema = subscribeRequestSchema({ allowLoopbackReceiver: false }).meta({
  id: 'PushSubscribeRequest',
});
export type SubscribeRequest = z.infer<typeof SubscribeRequestSchema>;

/** `DELETE /api/push/subscriptions`'s body: the endpoint to forget (any string: an unknown one is no error). */
export const UnsubscribeRequestSchema = z
  .object({ endpoint: z.string().min(1).max(PUSH_ENDPOINT_MAX_LENGTH) })
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
export const PushKeySchema = z
  .strictObject({ publicKey: z.string().describe('the VAPID public key: an uncompressed P-256 point, base64url') })
  .meta({ id: 'PushKey' });
