/**
 * The review page's tokens (decisions.md, "Confirmed within a minute"; docs/watch.md, "The review page"): an
 * HMAC-SHA256, keyed with the worker secret `REVIEW_SIGNING_KEY`, of the draft's id and the token's expiry. A token
 * is `<expiry, whole seconds since 1970>.<the MAC, base64url without padding>`: the expiry travels in the clear so
 * that an expired token can be told from a wrong one, and the MAC covers it, so that it cannot be moved. Web Crypto
 * only (the worker, Node and the browser have it); the MAC is compared by `crypto.subtle.verify`, in constant time.
 */

/** A review link lives a day from when its message is made. */
export const REVIEW_TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;

export type TokenVerdict = 'ok' | 'expired' | 'wrong';

const encoder = new TextEncoder();

/** What is signed: a purpose, the draft id (a safe alphabet: EventIdSchema) and the expiry, unambiguous. */
const signedText = (draftId: string, expirySeconds: number) => `review\n${draftId}\n${expirySeconds}`;

const hmacKey = (secret: string, usage: 'sign' | 'verify') =>
  crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [usage]);

const toBase64Url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');

/** The bytes of unpadded base64url, or null for anything else. */
function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** An HMAC-SHA256 is 32 bytes: 43 characters of unpadded base64url. */
const MAC_CHARACTERS = 43;

/** The token of `draftId`, valid until `expiresAt` (made with the review message: its time plus a day). */
export async function signReviewToken(secret: string, draftId: string, expiresAt: Date): Promise<string> {
  const expirySeconds = Math.floor(expiresAt.getTime() / 1000);
  const mac = await crypto.subtle.sign(
    'HMAC',
    await hmacKey(secret, 'sign'),
    encoder.encode(signedText(draftId, expirySeconds)),
  );
  return `${expirySeconds}.${toBase64Url(new Uint8Array(mac))}`;
}

/**
 * Whether `token` is this deployment's for `draftId`: 'wrong' when it is not (malformed, another draft's, another
 * key's, its expiry changed), else 'expired' from its expiry on, else 'ok'. A wrong token is never called expired.
 */
export async function verifyReviewToken(
  secret: string,
  draftId: string,
  token: string,
  now: Date,
): Promise<TokenVerdict> {
  const match = /^([1-9][0-9]{0,11})\.([A-Za-z0-9_-]+)$/.exec(token);
  if (match === null || match[2]!.length !== MAC_CHARACTERS) return 'wrong';
  const expirySeconds = Number(match[1]);
  const mac = fromBase64Url(match[2]!);
  // 43 characters carry 258 bits: the last character's two spare bits must be zero, so that one MAC has one form.
  if (mac === null || mac.length !== 32 || toBase64Url(mac) !== match[2]) return 'wrong';
  const valid = await crypto.subtle.verify(
    'HMAC',
    await hmacKey(secret, 'verify'),
    mac,
    encoder.encode(signedText(draftId, expirySeconds)),
  );
  if (!valid) return 'wrong';
  return now.getTime() >= expirySeconds * 1000 ? 'expired' : 'ok';
}

/** When a well-formed token says it expires (checked by `verifyReviewToken` first: unsigned here), or null. */
export function reviewTokenExpiry(token: string): Date | null {
  const match = /^([1-9][0-9]{0,11})\./.exec(token);
  return match === null ? null : new Date(Number(match[1]) * 1000);
}

/** `{base_url}/review/<draft id>?t=<token>`: the confirm link of a review message. */
export const reviewPagePath = (draftId: string): string => `/review/${draftId}`;
export const reviewPageUrl = (baseUrl: string, draftId: string, token: string): string =>
  `${baseUrl.replace(/\/+$/, '')}${reviewPagePath(draftId)}?${new URLSearchParams({ t: token })}`;

/** The confirm link of a draft whose message is made at `now`: its token lives `REVIEW_TOKEN_LIFETIME_MS`. */
export async function reviewConfirmUrl(secret: string, baseUrl: string, draftId: string, now: Date): Promise<string> {
  const token = await signReviewToken(secret, draftId, new Date(now.getTime() + REVIEW_TOKEN_LIFETIME_MS));
  return reviewPageUrl(baseUrl, draftId, token);
}
