import type { FeedAnswer } from '../../core/watch/run.ts';

/**
 * One request to a watched feed, with a deadline and a size cap (a slow or huge source is a reported failure),
 * and the conditional headers the run hands in. Web-standard only, so that `npm run watch` (Node) and the
 * worker's cron (workerd) fetch the same way.
 */

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
}

/** The deadline and size cap of both adapters unless told otherwise (`npm run watch --timeout-ms/--max-bytes`). */
export const DEFAULT_FETCH_LIMITS: FetchLimits = { timeoutMs: 10_000, maxBytes: 2 * 1024 * 1024 };

const ACCEPT =
  'application/rss+xml, application/atom+xml, application/feed+json, application/xml, application/json;q=0.9, */*;q=0.5';

const validatorsOf = (response: Response) => ({
  etag: response.headers.get('etag'),
  lastModified: response.headers.get('last-modified'),
});

export async function fetchFeed(
  url: string,
  headers: Readonly<Record<string, string>>,
  { timeoutMs, maxBytes }: FetchLimits,
): Promise<FeedAnswer> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(url, { signal, headers: { ...headers, Accept: ACCEPT } });
    if (response.status === 304) {
      await response.body?.cancel();
      return { kind: 'unchanged', ...validatorsOf(response) };
    }
    if (!response.ok) {
      await response.body?.cancel();
      return { kind: 'failed', reason: `answered HTTP ${response.status}` };
    }
    const declared = Number(response.headers.get('content-length') ?? '0');
    if (declared > maxBytes) {
      await response.body?.cancel();
      return { kind: 'failed', reason: `is too large (${declared} bytes, the limit is ${maxBytes})` };
    }
    if (response.body === null) return { kind: 'failed', reason: 'sent no body' };
    const text = await readCapped(response.body, maxBytes);
    if (text === null) return { kind: 'failed', reason: `is too large (over ${maxBytes} bytes)` };
    return { kind: 'fetched', text, ...validatorsOf(response) };
  } catch (error) {
    if (signal.aborted) return { kind: 'failed', reason: `timed out after ${timeoutMs} ms` };
    return { kind: 'failed', reason: `could not be fetched (${(error as Error).message})` };
  }
}

/** The body as text, or null once it passes `maxBytes` (the rest is not read). */
async function readCapped(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<string | null> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel();
      return null;
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}
