import { outboundAddress } from '../../../../core/outbound/address.ts';
import type { WebSubMode } from '../../../../core/websub/request.ts';
import { retryAfterSeconds } from '../../../../core/http/retry-after.ts';

/**
 * The hub's two requests to a subscriber's callback (WebSub §5.3 and §7): the GET that verifies its intent, and
 * the POST that delivers the feed. Each checks the outbound-address policy again first (a row written while the
 * loopback test setting was on is never sent to once it is off), follows no redirect, and gives up after 10 s.
 */

const CALLBACK_TIMEOUT_MS = 10_000;
/** A challenge is 43 characters; an answer longer than this is not the challenge, and is not read further. */
const CHALLENGE_ANSWER_MAX_BYTES = 1024;

const allowed = (callback: string, allowLoopbackReceiver: boolean) =>
  outboundAddress(callback, { allowLoopbackReceiver }).ok;

/**
 * `callback` with `parameters` appended to its query (§5.3: the callback's own query is kept as it is, the hub's
 * parameters joined after it with `&`). A stored callback has no fragment (the policy refuses one).
 */
export function withHubParameters(callback: string, parameters: Readonly<Record<string, string>>): string {
  const query = new URLSearchParams(parameters).toString();
  const joiner = callback.endsWith('?') ? '' : callback.includes('?') ? '&' : '?';
  return `${callback}${joiner}${query}`;
}

/** A random challenge: 32 bytes, base64url. */
export function newChallenge(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

/** The body of `response` as text, or `undefined` when it is longer than `maxBytes`. */
async function boundedText(response: Response, maxBytes: number): Promise<string | undefined> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    length += chunk.value.byteLength;
    if (length > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(chunk.value);
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

export interface Verification {
  mode: WebSubMode;
  topic: string;
  callback: string;
  /** Sent to subscribe (§5.3 requires it there); left out to unsubscribe, where the subscriber must ignore it. */
  leaseSeconds?: number;
}

/**
 * Verification of intent (§5.3): whether the callback confirms, by answering 2xx with exactly the challenge as its
 * body. Anything else (another status, another body, a redirect, no answer within 10 s) is no confirmation.
 */
export async function confirmsIntent(
  verification: Verification,
  allowLoopbackReceiver: boolean,
  fetcher: typeof fetch = fetch,
): Promise<boolean> {
  if (!allowed(verification.callback, allowLoopbackReceiver)) return false;
  const challenge = newChallenge();
  const url = withHubParameters(verification.callback, {
    'hub.mode': verification.mode,
    'hub.topic': verification.topic,
    'hub.challenge': challenge,
    ...(verification.leaseSeconds === undefined ? {} : { 'hub.lease_seconds': String(verification.leaseSeconds) }),
  });
  try {
    const response = await fetcher(url, {
      method: 'GET',
      redirect: 'manual',
      signal: AbortSignal.timeout(CALLBACK_TIMEOUT_MS),
    });
    if (response.status < 200 || response.status >= 300) {
      await response.body?.cancel();
      return false;
    }
    return (await boundedText(response, CHALLENGE_ANSWER_MAX_BYTES)) === challenge;
  } catch {
    return false;
  }
}

/** `sha256=<hex>`: the HMAC-SHA256 of `body` keyed with `secret` (§7, "Authenticated Content Distribution"). */
export async function hubSignature(secret: string, body: ArrayBuffer): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, body));
  return `sha256=${Array.from(mac, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

export interface FeedDocument {
  body: ArrayBuffer;
  contentType: string;
  link: string;
}

export type DistributionOutcome =
  /** 2xx: delivered. */
  | { kind: 'sent' }
  /** 410 (§7: the subscription was deleted), or a callback the outbound-address policy no longer allows. */
  | { kind: 'gone'; status: number }
  /** Anything else, or no answer: tried again later (§7: hubs SHOULD retry until successful). */
  | { kind: 'retry'; status: number; retryAfterSeconds: number | undefined };

/**
 * Content distribution (§7): the whole feed POSTed to the callback with its Content-Type and `Link` headers, and
 * `X-Hub-Signature` when the subscription has a secret. Never throws.
 */
export async function distribute(
  subscription: { callback: string; secret: string | null },
  document: FeedDocument,
  allowLoopbackReceiver: boolean,
  now: Date,
  fetcher: typeof fetch = fetch,
  idempotencyKey?: string,
): Promise<DistributionOutcome> {
  if (!allowed(subscription.callback, allowLoopbackReceiver)) return { kind: 'gone', status: 0 };
  const headers: Record<string, string> = { 'Content-Type': document.contentType, Link: document.link };
  // `Idempotency-Key` (docs/delivery.md): a subscriber tells a second copy of one delivery by it.
  if (idempotencyKey !== undefined) headers['Idempotency-Key'] = idempotencyKey;
  if (subscription.secret !== null) headers['X-Hub-Signature'] = await hubSignature(subscription.secret, document.body);
  try {
    const response = await fetcher(subscription.callback, {
      method: 'POST',
      headers,
      body: document.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(CALLBACK_TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (response.status >= 200 && response.status < 300) return { kind: 'sent' };
    if (response.status === 410) return { kind: 'gone', status: 410 };
    return {
      kind: 'retry',
      status: response.status,
      retryAfterSeconds: retryAfterSeconds(response.headers.get('retry-after'), now),
    };
  } catch {
    return { kind: 'retry', status: 0, retryAfterSeconds: undefined };
  }
}
