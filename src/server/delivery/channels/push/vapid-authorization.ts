import { vapidHeaders } from '@block65/webcrypto-web-push';
import type { VapidKeys } from './vapid.ts';

/**
 * The `Authorization: vapid t=<JWT>, k=<key>` header of RFC 8292, signed once per push-service origin and reused
 * (docs/delivery.md, "Sending"). The JWT names only the origin (`aud`), the contact (`sub`) and its expiry (`exp`), so
 * every push to one push service may carry the same one; signing it for each push (importing the private key and
 * an ES256 signature) was most of a push's CPU after the encryption. The library signs each token for 12 hours;
 * a token is reused until `VAPID_RENEW_MARGIN_MS` before its own `exp`, read from the token, so that no push ever
 * leaves with a token about to expire, whatever lifetime the library gives.
 */

/** A cached token is signed again once it has less than this left before its `exp`. */
export const VAPID_RENEW_MARGIN_MS = 10 * 60 * 1000;
// Origins kept per isolate: subscriptions name a handful of push services (the browsers' vendors), but an
// endpoint may name any https host, so the oldest entry makes room beyond this.
const MAX_CACHED_ORIGINS = 64;

interface SignedAuthorization {
  authorization: string;
  /** The JWT's `exp`, in ms since the epoch. */
  expiresAtMs: number;
}

const signed = new Map<string, Promise<SignedAuthorization>>();

// The `exp` of the token's payload, in ms: read from the token, whatever lifetime the library gives it. An
// unreadable one is simply not reused.
function expiryOf(authorization: string): number {
  const token = /^vapid t=([^,\s]+)/.exec(authorization)?.[1] ?? '';
  try {
    const payload: unknown = JSON.parse(atob(token.split('.')[1]!.replaceAll('-', '+').replaceAll('_', '/')));
    const exp = (payload as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp * 1000 : 0;
  } catch {
    return 0;
  }
}

async function sign(endpoint: string, vapid: VapidKeys): Promise<SignedAuthorization> {
  const { headers } = await vapidHeaders({ endpoint, expirationTime: null, keys: { p256dh: '', auth: '' } }, vapid);
  return { authorization: headers.authorization, expiresAtMs: expiryOf(headers.authorization) };
}

// Pushes sent at once to one origin share one signature: the promise is what is kept.
/** The Authorization for a push to `endpoint` (https), from the cache while it has the margin left at `now`. */
export async function vapidAuthorization(endpoint: string, vapid: VapidKeys, now = new Date()): Promise<string> {
  const key = `${vapid.publicKey} ${vapid.subject} ${new URL(endpoint).origin}`;
  const cached = signed.get(key);
  if (cached !== undefined) {
    const entry = await cached.catch(() => undefined);
    if (entry !== undefined && entry.expiresAtMs - VAPID_RENEW_MARGIN_MS > now.getTime()) return entry.authorization;
    if (signed.get(key) !== cached) return vapidAuthorization(endpoint, vapid, now); // renewed meanwhile
  }
  const signing = sign(endpoint, vapid);
  signed.delete(key);
  if (signed.size >= MAX_CACHED_ORIGINS) signed.delete(signed.keys().next().value!);
  signed.set(key, signing);
  signing.catch(() => signed.get(key) === signing && signed.delete(key));
  return (await signing).authorization;
}

/** Forgets every signed token: what a fresh isolate starts from (tests). */
export const forgetVapidAuthorizations = (): void => signed.clear();
