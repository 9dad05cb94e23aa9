import { type Answer, type Received, type RecordingReceiver, startRecordingReceiver } from './recording-receiver.ts';

/**
 * Discord and Slack on loopback, for the tests: a Node HTTP server that records each message posted to a webhook
 * path and answers as the platform documents, or as the test asks. Discord's execute webhook answers `204 No
 * Content` (no `?wait=true`), Slack's incoming webhook `200` with the body `ok`; a rate limit is Discord's `429`
 * with `{"message","retry_after","global"}` (seconds, a float) or Slack's `429` with `Retry-After`.
 */

export type ReceivedMessage = Received<unknown>;
export type ChatAnswer = Answer;
export type ChatReceiver = RecordingReceiver<unknown>;

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

/** The body as JSON (`undefined` when it was not). */
function readJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

export const startChatReceiver = (): Promise<ChatReceiver> =>
  startRecordingReceiver({ noun: 'messages', success, read: readJson });
