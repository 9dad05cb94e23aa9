import { retryAfterSeconds } from '../../../../core/http/retry-after.ts';

/**
 * One message POSTed to a chat webhook (Discord's execute webhook, Slack's incoming webhook), and what the
 * platform's answer means. Shared by the subscribers' webhooks (index.ts) and the deployment's review channel
 * (src/server/watch/review.ts). Never throws: every failure is an outcome.
 */

export type ChatSendOutcome =
  /** 2xx: posted (Discord answers 204 without `?wait=true`, Slack 200 `ok`). */
  | { kind: 'sent' }
  /** 404 or 410: the webhook was deleted, or its channel (Slack: `channel_not_found`, `channel_is_archived`). */
  | { kind: 'gone'; status: number; reason: string }
  /** 429: rate limited; `retryAfterSeconds` is how long the platform asked to wait, when it said. */
  | { kind: 'wait'; status: 429; retryAfterSeconds: number | undefined; reason: string }
  /** 5xx or no answer: worth another try later (after the platform's `Retry-After` when it gave one). */
  | { kind: 'retry'; status: number; retryAfterSeconds: number | undefined; reason: string }
  /** Anything else (400 a refused body, 401/403 a bad token, a redirect): trying the same again will not help. */
  | { kind: 'failed'; status: number; reason: string };

const SEND_TIMEOUT_MS = 10_000;

/** Discord's rate-limit body: `{"message","retry_after":<seconds, a float>,"global"}` (its "Rate Limits" topic). */
async function bodySeconds(response: Response): Promise<number | undefined> {
  if (!(response.headers.get('content-type') ?? '').toLowerCase().includes('json')) {
    await response.body?.cancel();
    return undefined;
  }
  const body = (await response.json().catch(() => null)) as { retry_after?: unknown } | null;
  const seconds = typeof body?.retry_after === 'number' ? body.retry_after : Number.NaN;
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

/**
 * How long the platform asked to wait, in whole seconds (rounded up: a queue delays by whole seconds, and early is
 * refused again): the longer of Discord's body `retry_after` and the `Retry-After` header (Discord and Slack).
 */
export async function askedWaitSeconds(response: Response, now: Date): Promise<number | undefined> {
  const asked = [retryAfterSeconds(response.headers.get('retry-after'), now), await bodySeconds(response)].filter(
    (seconds): seconds is number => seconds !== undefined,
  );
  return asked.length === 0 ? undefined : Math.ceil(Math.max(...asked));
}

export async function postChatMessage(
  url: string,
  message: object,
  now: Date,
  fetcher: typeof fetch = fetch,
  idempotencyKey?: string,
): Promise<ChatSendOutcome> {
  let response: Response;
  // `Idempotency-Key` (docs/delivery.md): the platforms ignore it; a receiver of our own tells a second copy by it.
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (idempotencyKey !== undefined) headers['Idempotency-Key'] = idempotencyKey;
  try {
    response = await fetcher(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(message),
      redirect: 'manual',
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
  } catch (error) {
    const reason = `could not be reached (${error instanceof Error ? error.message : String(error)})`;
    return { kind: 'retry', status: 0, retryAfterSeconds: undefined, reason };
  }
  const { status } = response;
  const reason = `answered HTTP ${status}`;
  if (status === 429 || status >= 500) {
    const retryAfterSeconds = await askedWaitSeconds(response, now);
    return status === 429
      ? { kind: 'wait', status, retryAfterSeconds, reason }
      : { kind: 'retry', status, retryAfterSeconds, reason };
  }
  await response.body?.cancel();
  if (status >= 200 && status < 300) return { kind: 'sent' };
  if (status === 404 || status === 410) return { kind: 'gone', status, reason };
  return { kind: 'failed', status, reason };
}
