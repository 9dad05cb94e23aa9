import { createECDH, randomBytes, type ECDH } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import ece from 'http_ece';
import { importJWK, jwtVerify, type JWTPayload } from 'jose';

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

export interface ReceivedPush {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** What the receiver answered it. */
  status: number;
}

export interface PushAnswer {
  status: number;
  headers?: Record<string, string>;
}

export interface PushReceiver {
  origin: string;
  received: ReceivedPush[];
  /** What the next request to `path` is answered (201 when nothing is set); each answer is used once. */
  answerNext(path: string, ...answers: PushAnswer[]): void;
  /** Resolves once `count` pushes reached `path` (or the whole receiver), rejects after `timeoutMs`. */
  waitFor(count: number, path?: string, timeoutMs?: number): Promise<ReceivedPush[]>;
  close(): Promise<void>;
}

export async function startPushReceiver(): Promise<PushReceiver> {
  const received: ReceivedPush[] = [];
  const answers = new Map<string, PushAnswer[]>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const answer = answers.get(path)?.shift() ?? { status: 201 };
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks), status: answer.status });
      response.writeHead(answer.status, answer.headers ?? {});
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const matching = (path?: string) => received.filter((push) => path === undefined || push.path === path);
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    answerNext: (path, ...list) => answers.set(path, [...(answers.get(path) ?? []), ...list]),
    async waitFor(count, path, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (matching(path).length < count) {
        if (Date.now() > deadline)
          throw new Error(`${matching(path).length} of ${count} pushes reached ${path ?? 'the receiver'}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return matching(path);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

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
