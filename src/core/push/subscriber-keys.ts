/**
 * A browser's two push keys (RFC 8291 §3.1): its ECDH public key, an uncompressed P-256 point (65 bytes), and a
 * 16-byte authentication secret, both base64url in `PushSubscription.toJSON()`. Checked when they are written, so
 * that a subscription no push could ever be encrypted for is refused with a 400 rather than failing at every send.
 */

export const P256DH_BYTES = 65;
export const AUTH_BYTES = 16;

const BASE64URL = /^[A-Za-z0-9_-]*={0,2}$/;

/** The bytes of a base64url text (padding optional), or `undefined` when it is not base64url. */
export function decodeBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!BASE64URL.test(text)) return undefined;
  const digits = text.replace(/=+$/, '');
  if (digits.length % 4 === 1) return undefined;
  const binary = atob(digits.replaceAll('-', '+').replaceAll('_', '/'));
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/**
 * Whether `bytes` is a public key the service can encrypt for: an uncompressed point (`0x04`, x, y) that Web Crypto
 * accepts as a raw P-256 ECDH key, which it does only for a point on the curve (Node and workerd both check). A
 * length cannot tell a point from 65 random bytes.
 */
export async function isP256PublicKey(bytes: Uint8Array<ArrayBuffer>): Promise<boolean> {
  if (bytes.length !== P256DH_BYTES || bytes[0] !== 0x04) return false;
  try {
    await crypto.subtle.importKey('raw', bytes, { name: 'ECDH', namedCurve: 'P-256' }, false, []);
    return true;
  } catch {
    return false;
  }
}
