import { encryptNotification } from '@block65/webcrypto-web-push';
import { retryAfterSeconds } from '../../../../core/http/retry-after.ts';
import type { VapidKeys } from './vapid.ts';
import { vapidAuthorization } from './vapid-authorization.ts';

/**
 * One Web Push request (RFC 8030) with an RFC 8291 `aes128gcm` body and an RFC 8292 `vapid` Authorization, both
 * made by @block65/webcrypto-web-push, and what the push service's answer means for the subscription.
 */

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface PushOptions {
  /** Seconds the push service keeps an undelivered message (decided: 24 h). */
  ttl: number;
  urgency: 'normal' | 'high';
  /**
   * RFC 8030 `Topic` (at most 32 characters of the URL-safe base64 alphabet): a second copy of one delivery replaces
   * the first at the push service while it waits there, so that a device is not told twice.
   */
  topic: string;
  allowLoopbackReceiver: boolean;
}

export type SendOutcome =
  /** 2xx: delivered to the push service. */
  | { kind: 'sent' }
  /**
   * 404/410: the subscription is gone for good (RFC 8030 §7.3).
   */
  | { kind: 'gone'; status: number }
  /** 429, 5xx or no answer: worth another try later; `retryAfterSeconds` when the service said when. */
  | { kind: 'retry'; status: number; retryAfterSeconds: number | undefined }
  /** Any other answer (a 400, 403, 413…): this push is not retried; the failure counts toward the 7 days. */
  | { kind: 'failed'; status: number };

export const PUSH_TTL_SECONDS = 24 * 60 * 60;
const SEND_TIMEOUT_MS = 10_000;

export function outcomeOf(status: number, retryAfter: number | undefined): SendOutcome {
  if (status >= 200 && status < 300) return { kind: 'sent' };
  if (status === 404 || status === 410) return { kind: 'gone', status };
  if (status === 429 || status >= 500) return { kind: 'retry', status, retryAfterSeconds: retryAfter };
  return { kind: 'failed', status };
}

/**
 * The library refuses a non-https endpoint (RFC 8030 push resources are https). The tests' loopback receiver
 * (`http://127.0.0.1:<port>/…`, allowed only by `PUSH_ALLOW_LOOPBACK_RECEIVER`) gets a request built for the
 * https form of its URL (so the JWT's `aud` is `https://127.0.0.1:<port>`), sent to its real http URL.
 */
function requestUrls(endpoint: string, allowLoopbackReceiver: boolean): { buildFor: string; sendTo: string } {
  const url = new URL(endpoint);
  if (!allowLoopbackReceiver || url.protocol === 'https:') return { buildFor: endpoint, sendTo: endpoint };
  url.protocol = 'https:';
  return { buildFor: url.href, sendTo: endpoint };
}

// The library's `buildPushPayload` would sign a new VAPID token for every push: its two parts are used instead,
// with the push service's token reused (vapid-authorization.ts), and the headers it would add are written here
// (RFC 8030 `TTL` and `Urgency`, RFC 8188 `Content-Encoding: aes128gcm`).
async function pushRequest(
  payload: string,
  target: PushTarget,
  vapid: VapidKeys,
  options: PushOptions,
  now: Date,
): Promise<{ headers: Record<string, string>; body: Uint8Array<ArrayBuffer> }> {
  const subscription = {
    endpoint: target.endpoint,
    expirationTime: null,
    keys: { p256dh: target.p256dh, auth: target.auth },
  };
  const [authorization, body] = await Promise.all([
    vapidAuthorization(target.endpoint, vapid, now),
    encryptNotification(subscription, new TextEncoder().encode(payload)),
  ]);
  return {
    headers: {
      authorization,
      ttl: String(options.ttl),
      urgency: options.urgency,
      topic: options.topic,
      'content-encoding': 'aes128gcm',
      'content-length': String(body.byteLength),
      'content-type': 'application/octet-stream',
    },
    body,
  };
}

/** Sends `payload` to one subscription; never throws: every failure is an outcome for that subscription alone. */
export async function sendPush(
  target: PushTarget,
  payload: string,
  vapid: VapidKeys,
  options: PushOptions,
  now: Date,
  fetcher: typeof fetch = fetch,
): Promise<SendOutcome> {
  const { buildFor, sendTo } = requestUrls(target.endpoint, options.allowLoopbackReceiver);
  let request: { headers: Record<string, string>; body: Uint8Array<ArrayBuffer> };
  try {
    request = await pushRequest(payload, { ...target, endpoint: buildFor }, vapid, options, now);
  } catch {
    // Keys that are not a P-256 point (refused at write time since; a row from before): no push could be decrypted.
    return { kind: 'failed', status: 0 };
  }
  try {
    const response = await fetcher(sendTo, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    await response.body?.cancel();
    return outcomeOf(response.status, retryAfterSeconds(response.headers.get('retry-after'), now));
  } catch {
    return { kind: 'retry', status: 0, retryAfterSeconds: undefined };
  }
}
