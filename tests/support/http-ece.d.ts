/** The part of `http_ece` (RFC 8188 / RFC 8291, no types of its own) the push tests use to decrypt. */
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';
  export interface DecryptParameters {
    version: 'aes128gcm' | 'aesgcm';
    privateKey?: ECDH;
    authSecret?: string | Buffer;
    dh?: string | Buffer;
  }
  export function decrypt(buffer: Buffer, parameters: DecryptParameters): Buffer;
  const ece: { decrypt: typeof decrypt };
  export default ece;
}
