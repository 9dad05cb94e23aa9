import { z } from 'zod';
import { lazySchema } from '../lazy-schema.ts';
import type { Transition } from '../push/due.ts';
import { announcedMs } from '../ordering.ts';
import { DEFAULT_OUTBOUND_RULES, type OutboundRules } from '../outbound/address.ts';
import { addressLookupSchema, outboundAddressSchema } from '../outbound/address-schema.ts';
import { PUSH_BODY_MAX_BYTES, TOPIC_FIELDS } from '../push/subscription.ts';
import type { Event } from '../schemas.ts';
import { eventPageUrl } from '../site.ts';

/**
 * Signed webhooks for developers (decisions.md, "More channels: Telegram, ntfy, signed webhooks"), per the Standard
 * Webhooks specification (https://www.standardwebhooks.com/): the write bodies of `POST` and `DELETE /api/hooks`,
 * the secret, the JSON payload of a delivery and its signature (`webhook-signature: v1,<base64 HMAC-SHA256 of
 * "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the bytes after `whsec_`). Web Crypto only.
 */

/** The largest write body: push's, as every JSON write. */
export const HOOK_BODY_MAX_BYTES = PUSH_BODY_MAX_BYTES;

/** `POST /api/hooks`'s body under `rules`: any public https URL the outbound-address policy allows, and the topics. */
export const hookRequestSchema = (rules: OutboundRules) =>
  z.object({
    url: outboundAddressSchema(rules).describe(
      'your receiver: a public https URL that echoes the verification challenge',
    ),
    providers: TOPIC_FIELDS.providers,
    kinds: TOPIC_FIELDS.kinds,
  });
export const HookRequestSchema = lazySchema(() =>
  hookRequestSchema(DEFAULT_OUTBOUND_RULES).meta({ id: 'HookRequest' }),
);
export type HookRequest = z.infer<typeof HookRequestSchema>;

/** The secret's form: `whsec_` and the base64 of the key's bytes. */
export const SECRET_PREFIX = 'whsec_';
/** 32 random bytes (the specification asks for 24 to 64). */
export const SECRET_BYTES = 32;

/** `DELETE /api/hooks`'s body: the URL (any spelling of it) and the secret its POST answered. */
export const HookForgetSchema = z
  .object({ url: addressLookupSchema, secret: z.string().min(1).max(200) })
  .meta({ id: 'HookForget' });

/** What the POST answers, once: the topics, and the secret the deliveries will be signed with. */
export const HookAcceptedSchema = lazySchema(() =>
  z
    .strictObject({
      url: z.string(),
      providers: z.array(TOPIC_FIELDS.providers.element),
      kinds: z.array(TOPIC_FIELDS.kinds.unwrap().element),
      secret: z.string().describe('`whsec_<base64>`: the key of `webhook-signature`; answered this once'),
    })
    .meta({ id: 'HookAccepted' }),
);
export type HookAccepted = z.infer<typeof HookAcceptedSchema>;

const base64 = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes));

/** A new secret: `whsec_` and 32 random bytes in base64. */
export const newHookSecret = (): string =>
  `${SECRET_PREFIX}${base64(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)))}`;

/** Whether two secrets are the same, in time that does not depend on where they differ. */
export function sameSecret(a: string, b: string): boolean {
  const length = Math.max(a.length, b.length);
  let difference = a.length ^ b.length;
  for (let index = 0; index < length; index += 1) difference |= (a.charCodeAt(index) | 0) ^ (b.charCodeAt(index) | 0);
  return difference === 0;
}

export const HOOK_TYPES = { announced: 'event.published', effective: 'reset.effective' } as const satisfies Record<
  Transition,
  string
>;

export interface HookPayload {
  type: (typeof HOOK_TYPES)[Transition];
  /** When it happened (ISO 8601): the announcement, or the moment the reset took effect. Stable across retries. */
  timestamp: string;
  data: Event & { pageUrl: string };
}

/** The payload of one (event, transition). */
export function hookPayload(event: Event, transition: Transition, baseUrl: string): HookPayload {
  const at = transition === 'effective' && event.effectiveAt !== null ? event.effectiveAt : announcedMs(event);
  return {
    type: HOOK_TYPES[transition],
    timestamp: new Date(at).toISOString(),
    data: { ...event, pageUrl: eventPageUrl(baseUrl, event) },
  };
}

/** What is signed: `<webhook-id>.<webhook-timestamp>.<body>`. */
export const signingInput = (id: string, timestampSeconds: number, body: string): string =>
  `${id}.${timestampSeconds}.${body}`;

/** The key's bytes of a `whsec_` secret. */
function secretBytes(secret: string): Uint8Array<ArrayBuffer> {
  const text = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  return Uint8Array.from(atob(text), (character) => character.charCodeAt(0));
}

/** `webhook-signature`'s value: `v1,<base64 HMAC-SHA256 of the signing input>`. */
export async function hookSignature(secret: string, id: string, timestampSeconds: number, body: string) {
  const key = await crypto.subtle.importKey('raw', secretBytes(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(signingInput(id, timestampSeconds, body)));
  return `v1,${base64(new Uint8Array(mac))}`;
}

/** The three headers of a delivery sent at `sentAt` (the wall clock: receivers compare it with theirs). */
export async function hookHeaders(
  secret: string,
  id: string,
  sentAt: Date,
  body: string,
): Promise<Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string>> {
  const timestamp = Math.floor(sentAt.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': await hookSignature(secret, id, timestamp, body),
  };
}
