import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The Telegram Bot API on loopback, for the tests, written from its public documents (core.telegram.org/bots/api:
 * "Making requests", "sendMessage", "ResponseParameters"): requests go to `/bot<token>/<method>`; every answer is
 * JSON `{"ok":true,"result":…}` or `{"ok":false,"error_code","description"}`, with `parameters.retry_after` (seconds)
 * when a flood limit was hit. A token it does not know is `404 Not Found`, as the real API answers. Each
 * `sendMessage` is recorded with its chat and answered as the test asked for that chat, else with the sent Message.
 */

export interface SentMessage {
  token: string;
  method: string;
  body: { chat_id?: number | string; text?: string; parse_mode?: string; [field: string]: unknown };
  /** The HTTP status the receiver answered. */
  status: number;
  /** When it arrived (ms since the epoch). */
  at: number;
}

export interface TelegramAnswer {
  status: number;
  body: object;
}

/** The bot was blocked by the user, or removed from the group or channel. */
export const blocked = (): TelegramAnswer => ({
  status: 403,
  body: { ok: false, error_code: 403, description: 'Forbidden: bot was blocked by the user' },
});

/** A flood limit: try again after `seconds`. */
export const tooManyRequests = (seconds: number): TelegramAnswer => ({
  status: 429,
  body: {
    ok: false,
    error_code: 429,
    description: `Too Many Requests: retry after ${seconds}`,
    parameters: { retry_after: seconds },
  },
});

export interface TelegramReceiver {
  /** The API's address, for `TELEGRAM_API_URL`. */
  origin: string;
  received: SentMessage[];
  /** What the next `sendMessage` calls to `chatId` are answered, in order; each is used once. */
  answerNext(chatId: number, ...answers: TelegramAnswer[]): void;
  /** The messages a chat accepted (answered 2xx). */
  accepted(chatId: number): SentMessage[];
  close(): Promise<void>;
}

export async function startTelegramReceiver(token: string): Promise<TelegramReceiver> {
  const received: SentMessage[] = [];
  const answers = new Map<string, TelegramAnswer[]>();
  let messageId = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(request.url ?? '');
      let body: SentMessage['body'] = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as SentMessage['body'];
      } catch {}
      const answer: TelegramAnswer =
        match === null || match[1] !== token || request.method !== 'POST'
          ? { status: 404, body: { ok: false, error_code: 404, description: 'Not Found' } }
          : (answers.get(String(body.chat_id))?.shift() ?? {
              status: 200,
              body: {
                ok: true,
                result: {
                  message_id: ++messageId,
                  date: Math.floor(Date.now() / 1000),
                  chat: { id: Number(body.chat_id), type: Number(body.chat_id) < 0 ? 'group' : 'private' },
                  text: body.text,
                },
              },
            });
      received.push({ token: match?.[1] ?? '', method: match?.[2] ?? '', body, status: answer.status, at: Date.now() });
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    answerNext: (chatId, ...list) => answers.set(String(chatId), [...(answers.get(String(chatId)) ?? []), ...list]),
    accepted: (chatId) => received.filter((sent) => String(sent.body.chat_id) === String(chatId) && sent.status < 300),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
