/**
 * RFC 9110 `Retry-After` as seconds: delay-seconds (Discord's may carry a fraction) or an HTTP date; `undefined`
 * when absent or unreadable. A number is never read as a date (`Date.parse('1.5')` is a day in 2001). The one
 * reading of it for every channel the delivery wing sends to, and for the review channel.
 */
export function retryAfterSeconds(header: string | null, now: Date): number | undefined {
  const text = header?.trim() ?? '';
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - now.getTime()) / 1000);
}
