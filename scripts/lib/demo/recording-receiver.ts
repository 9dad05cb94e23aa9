import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ReceiverSwitch, switchable } from './switchable-receiver.ts';
import { scaled } from '../load-scaled.ts';

/**
 * A receiver on loopback for the delivery path's tests (push-receiver.ts, chat-receiver.ts): a Node HTTP server that
 * records each request and answers it as the test asks, else as the real receiver answers a success.
 */

export interface Received<Body> {
  path: string;
  headers: IncomingHttpHeaders;
  body: Body;
  /** What the receiver answered it. */
  status: number;
  /** When it arrived (ms since the epoch, the receiver's clock). */
  at: number;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface RecordingReceiver<Body> {
  origin: string;
  received: Received<Body>[];
  /** What the next requests to `path` are answered, in order (else the success); each answer is used once. */
  answerNext(path: string, ...answers: Answer[]): void;
  /** Resolves once `count` requests reached `path` (or the whole receiver), rejects after `timeoutMs` scaled by the load. */
  waitFor(count: number, path?: string, timeoutMs?: number): Promise<Received<Body>[]>;
  /** Forgets the requests received so far, so that a file's tests share one receiver (the answers set stay). */
  forget(): void;
  /** Puts the receiver down for real, and up again (switchable-receiver.ts). */
  power: ReceiverSwitch;
  close(): Promise<void>;
}

export async function startRecordingReceiver<Body>(receiver: {
  /** What a request is called in a timeout's message ("pushes", "messages"). */
  noun: string;
  success: (path: string) => Answer;
  read: (body: Buffer) => Body;
}): Promise<RecordingReceiver<Body>> {
  const received: Received<Body>[] = [];
  const answers = new Map<string, Answer[]>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const answer = answers.get(path)?.shift() ?? receiver.success(path);
      const body = receiver.read(Buffer.concat(chunks));
      received.push({ path, headers: request.headers, body, status: answer.status, at: Date.now() });
      response.writeHead(answer.status, answer.headers ?? {});
      response.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const power = switchable(server);
  const matching = (path?: string) => received.filter((request) => path === undefined || request.path === path);
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    answerNext: (path, ...list) => answers.set(path, [...(answers.get(path) ?? []), ...list]),
    async waitFor(count, path, timeoutMs = 30_000) {
      // A hang guard, scaled by the machine's load (scripts/lib/load-scaled.ts): a delivery on a busy machine is
      // waited for, not raced.
      const deadline = Date.now() + scaled(timeoutMs);
      while (matching(path).length < count) {
        if (Date.now() > deadline)
          throw new Error(`${matching(path).length} of ${count} ${receiver.noun} reached ${path ?? 'the receiver'}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return matching(path);
    },
    forget: () => {
      received.length = 0;
    },
    power,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
