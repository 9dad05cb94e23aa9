import { createECDH, randomBytes, type ECDH } from 'node:crypto';
import ece from 'http_ece';
import { importJWK, jwtVerify, type JWTPayload } from 'jose';
import { type Answer, type Received, type RecordingReceiver, startRecordingReceiver } from './recording-receiver.ts';

/**
 * The tests' side of Web Push: a browser's subscription keys, a push service on loopback that records what it
 * is sent and answers what the test says, and the independent checks of a push: RFC 8291 decryption by
 * `http_ece`, the RFC 8292 `vapid` JWT by `jose`.
 */

export interface SubscriberKeys {
  ecdh: ECDH;
  p256dh: string;
  auth: string;
}

/** A browser's keys as `PushSubscription.toJSON()` gives them: a P-256 point and a 16-byte secret. */
export function createSubscriberKeys(): SubscriberKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { ecdh, p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

export type ReceivedPush = Received<Buffer>;
export type PushAnswer = Answer;
export type PushReceiver = RecordingReceiver<Buffer>;

/** A push service's success is `201 Created`. */
export const startPushReceiver = (): Promise<PushReceiver> =>
  startRecordingReceiver({ noun: 'pushes', success: () => ({ status: 201 }), read: (body) => body });

/** The push's plaintext, decrypted as a browser would (RFC 8291 `aes128gcm`), by an independent implementation. */
export function decryptPush(push: ReceivedPush, keys: SubscriberKeys): string {
  if (push.headers['content-encoding'] !== 'aes128gcm') throw new Error('not an aes128gcm push');
  return ece
    .decrypt(push.body, { version: 'aes128gcm', privateKey: keys.ecdh, authSecret: keys.auth })
    .toString('utf8');
}

/**
 * The `Authorization: vapid t=<JWT>, k=<key>` of a push (RFC 8292), verified by `jose` against `publicKey` (the
 * one `/api/push/key` gives); resolves with the JWT's claims, rejects when anything is off.
 */
export async function verifyVapid(push: ReceivedPush, publicKey: string, audience: string): Promise<JWTPayload> {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(push.headers.authorization ?? '');
  if (match === null) throw new Error(`not a vapid Authorization: ${push.headers.authorization}`);
  if (match[2] !== publicKey) throw new Error('the k= key is not the service’s public key');
  const point = Buffer.from(publicKey, 'base64url');
  const key = await importJWK(
    {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    'ES256',
  );
  const { payload } = await jwtVerify(match[1]!, key, { audience, algorithms: ['ES256'] });
  return payload;
}
