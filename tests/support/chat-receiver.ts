import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Discord and Slack on loopback, for the tests: a Node HTTP server that records each message posted to a webhook
 * path and answers as the platform documents, or as the test asks. Discord's execute webhook answers `204 No
 * Content` (no `?wait=true`), Slack's incoming webhook `200` with the body `ok`; a rate limit is Discord's `429`
 * with `{"message","retry_after","global"}` (seconds, a float) or Slack's `429` with `Retry-After`.
 */

export interface ReceivedMessage {
  path: string;
  headers: IncomingHttpHeaders;
  /** The body as JSON (`undefined` when it was not). */
  body: unknown;
  /** What the receiver answered it. */
  status: number;
  /** When it arrived (ms since the epoch, the receiver's clock). */
  at: number;
}

export interface ChatAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface ChatReceiver {
  origin: string;
  received: ReceivedMessage[];
  /** What the next messages to `path` are answered, in order (else the platform's success); each used once. */
  answerNext(path: string, ...answers: ChatAnswer[]): void;
  /** Resolves once `count` messages reached `path`, rejects after `timeoutMs`. */
  waitFor(count: number, path: string, timeoutMs?: number): Promise<ReceivedMessage[]>;
  close(): Promise<void>;
}

/** The platform's answer to a message it took, by the webhook path's form. */
const success = (path: string): ChatAnswer =>
  path.startsWith('/services/')
    ? { status: 200, headers: { 'content-type': 'text/html' }, body: 'ok' }
    : { status: 204 };

/** Discord's `429` (its "Rate Limits" topic): the JSON body, with `retry_after` in seconds. */
export const discordRateLimit = (retryAfterSeconds: number): ChatAnswer => ({
  status: 429,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ message: 'You are being rate limited.', retry_after: retryAfterSeconds, global: false }),
});

/** Slack's `429`: `Retry-After` in whole seconds. */
export const slackRateLimit = (retryAfterSeconds: number): ChatAnswer => ({
  status: 429,
  headers: { 'retry-after': String(retryAfterSeconds), 'content-type': 'text/html' },
  body: 'rate_limited',
});

export async function startChatReceiver(): Promise<ChatReceiver> {
  const received: ReceivedMessage[] = [];
  const answers = new Map<string, ChatAnswer[]>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const answer = answers.get(path)?.shift() ?? success(path);
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = undefined;
      }
      received.push({ path, headers: request.headers, body, status: answer.status, at: Date.now() });
      response.writeHead(answer.status, answer.headers ?? {});
      response.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const matching = (path: string) => received.filter((message) => message.path === path);
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    answerNext: (path, ...list) => answers.set(path, [...(answers.get(path) ?? []), ...list]),
    async waitFor(count, path, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (matching(path).length < count) {
        if (Date.now() > deadline) throw new Error(`${matching(path).length} of ${count} messages reached ${path}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return matching(path);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
