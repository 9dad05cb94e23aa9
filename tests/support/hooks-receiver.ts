import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * A developer's webhook receiver, written from the Standard Webhooks specification (https://www.standardwebhooks.com/)
 * and the board's documented verification of intent (docs/delivery.md, "Signed webhooks"), not from the service's
 * code: a small HTTP server on loopback.
 *
 * - Verification: a GET carrying `hub.challenge` is answered 200 with the challenge as its body (the intent confirmed).
 * - Deliveries: each POST is recorded with its headers and body and verified with the specification's reference
 *   library for JavaScript (`standardwebhooks`) under the secret the test gave for that path (`expect`); answered 200
 *   unless an answer was set for it (`answerNext`: a status, e.g. one 503, sent with `Retry-After: 1`; or a status
 *   with exactly the headers given, e.g. `{ status: 503 }` with none, as a receiver that is simply down answers).
 */

/** An answer to a delivery: a status alone (a refusal then asks for a retry in a second), or with its own headers. */
export type HookAnswer = number | { status: number; headers?: Record<string, string> };

export interface HookDelivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** What this receiver answered. */
  status: number;
  /** The reference library's verdict: the payload it returned, or the error it threw. */
  verified: { ok: true; payload: unknown } | { ok: false; error: string } | { ok: false; error: 'no secret' };
}

export interface HooksReceiver {
  origin: string;
  challenges: { path: string; challenge: string }[];
  deliveries: HookDelivery[];
  /** The secret that signs deliveries to `path` (the one the create answer gave). */
  expect(path: string, secret: string): void;
  /** The answers to the next deliveries to `path`, one each (200 when none is set). */
  answerNext(path: string, ...answers: HookAnswer[]): void;
  close(): Promise<void>;
}

export async function startHooksReceiver(): Promise<HooksReceiver> {
  const secrets = new Map<string, string>();
  const answers = new Map<string, HookAnswer[]>();
  const challenges: HooksReceiver['challenges'] = [];
  const deliveries: HookDelivery[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://receiver');
    if (request.method === 'GET') {
      const challenge = url.searchParams.get('hub.challenge');
      if (challenge === null) {
        response.writeHead(404).end();
        return;
      }
      challenges.push({ path: url.pathname, challenge });
      response.writeHead(200, { 'Content-Type': 'text/plain' }).end(challenge);
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const secret = secrets.get(url.pathname);
      let verified: HookDelivery['verified'];
      if (secret === undefined) verified = { ok: false, error: 'no secret' };
      else
        try {
          verified = { ok: true, payload: new Webhook(secret).verify(body, request.headers as Record<string, string>) };
        } catch (error) {
          verified = { ok: false, error: String(error) };
        }
      const answer = answers.get(url.pathname)?.shift() ?? 200;
      const status = typeof answer === 'number' ? answer : answer.status;
      deliveries.push({ path: url.pathname, headers: request.headers, body, status, verified });
      // A refusal given as a status asks for a retry in a second, as a busy receiver may (the service honours
      // Retry-After); one given with its headers is sent with those alone.
      const headers =
        typeof answer === 'number' ? (status >= 300 ? { 'Retry-After': '1' } : {}) : (answer.headers ?? {});
      response.writeHead(status, headers).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    challenges,
    deliveries,
    expect: (path, secret) => void secrets.set(path, secret),
    answerNext: (path, ...list) => void answers.set(path, [...(answers.get(path) ?? []), ...list]),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
