/** Fetching one watched feed with a deadline and a size cap: a slow or huge source is a reported failure. */

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
}

export type FetchOutcome = { ok: true; text: string } | { ok: false; reason: string };

export async function fetchFeed(url: string, { timeoutMs, maxBytes }: FetchLimits): Promise<FetchOutcome> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(url, {
      signal,
      headers: {
        Accept:
          'application/rss+xml, application/atom+xml, application/feed+json, application/xml, application/json;q=0.9, */*;q=0.5',
      },
    });
    if (!response.ok) return { ok: false, reason: `answered HTTP ${response.status}` };
    const declared = Number(response.headers.get('content-length') ?? '0');
    if (declared > maxBytes) return { ok: false, reason: `is too large (${declared} bytes, the limit is ${maxBytes})` };
    const reader = response.body?.getReader();
    if (reader === undefined) return { ok: false, reason: 'sent no body' };
    const chunks: Uint8Array[] = [];
    let received = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.byteLength;
      if (received > maxBytes) {
        await reader.cancel();
        return { ok: false, reason: `is too large (over ${maxBytes} bytes)` };
      }
      chunks.push(value);
    }
    return { ok: true, text: new TextDecoder().decode(Buffer.concat(chunks)) };
  } catch (error) {
    if (signal.aborted) return { ok: false, reason: `timed out after ${timeoutMs} ms` };
    return { ok: false, reason: `could not be fetched (${(error as Error).message})` };
  }
}
