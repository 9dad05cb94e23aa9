import { mediaTypeOf } from '../../core/routes/policy.ts';

/** Whether the request says its body is JSON (`Content-Type: application/json`, any parameters, any case). */
export const isJsonBody = (request: Request): boolean =>
  (request.headers.get('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase() === mediaTypeOf('json');

/**
 * Bodies up to this size that an answer left unread are read to their end: sixteen times the largest body any
 * route takes (MCP's 64 KiB). Beyond it the body is cancelled; the runtime then closes the connection.
 */
export const UNREAD_BODY_READ_LIMIT_BYTES = 1024 * 1024;

/**
 * Reads what an answer left of the request's body. A connection can carry the next request only once this one
 * was read to its end: the local runtime (`wrangler dev`, whose body-draining middleware a prebuilt worker does
 * not get) otherwise drops it, and its proxy answers the next request on it `500 Network connection lost.`.
 * A body handed to a copy of the request, or already read, is locked: nothing is left to read here.
 */
export async function readRestOfBody(request: Request): Promise<void> {
  const body = request.body;
  if (body === null || body.locked) return;
  const reader = body.getReader();
  try {
    let received = 0;
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      received += chunk.value.byteLength;
      if (received > UNREAD_BODY_READ_LIMIT_BYTES) {
        await reader.cancel();
        return;
      }
    }
  } catch (error) {
    // The client went away mid-body: nothing to keep the connection for.
    console.warn('the rest of a request body could not be read', error);
  }
}
