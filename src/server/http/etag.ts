/**
 * Conditional requests on JSON computed at the edge. The validator is weak and names the data, not the
 * bytes: fields that move only with the clock (`updatedAt`, `daysSince`) are left out, so a poller gets
 * 304 until something on the board has changed.
 */

const CLOCK_FIELDS = new Set(['updatedAt', 'daysSince', 'elapsedDays']);

async function sha256Hex(input: string | ArrayBuffer): Promise<string> {
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

export async function dataEtag(body: unknown): Promise<string> {
  const withoutClock = JSON.stringify(body, (key, value: unknown) => (CLOCK_FIELDS.has(key) ? undefined : value));
  return `W/"${(await sha256Hex(withoutClock)).slice(0, 32)}"`;
}

/** A weak validator of a body's bytes, for answers that have no data ETag of their own. */
export const bytesEtag = async (bytes: ArrayBuffer): Promise<string> => `W/"${(await sha256Hex(bytes)).slice(0, 32)}"`;

/** Whether an `If-None-Match` header names `etag` (weak comparison, RFC 9110 13.1.2). */
export function ifNoneMatchHits(header: string | null, etag: string): boolean {
  if (header === null) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((candidate) => opaque(candidate) === opaque(etag));
}
