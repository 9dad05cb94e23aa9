import { mediaTypeOf } from '../../core/routes/policy.ts';

const bodyMediaType = (request: Request): string =>
  (request.headers.get('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();

/** Whether the request says its body is JSON (`Content-Type: application/json`, any parameters, any case). */
export const isJsonBody = (request: Request): boolean => bodyMediaType(request) === mediaTypeOf('json');

/** Whether the request says its body is a form (`application/x-www-form-urlencoded`, any parameters, any case). */
export const isFormBody = (request: Request): boolean => bodyMediaType(request) === 'application/x-www-form-urlencoded';

/**
 * Bodies up to this size that an answer left unread are read to their end: sixteen times the largest body any
 * route takes (MCP's 64 KiB). A body declared larger is refused `413` before it is parsed and read to its end
 * as well (the platform caps a request body, 100 MB on the smallest plan, so the read is bounded; reading is
 * I/O, not CPU); a body of no declared length that goes beyond it is cancelled, and the runtime then closes
 * the connection.
 */
export const UNREAD_BODY_READ_LIMIT_BYTES = 1024 * 1024;

/**
 * Whether the request declares (`Content-Length`) a body over `UNREAD_BODY_READ_LIMIT_BYTES`: no route takes one,
 * and the edge refuses it `413` before parsing any of it (functions/app.ts). Read in part and cancelled, such a
 * body made the local runtime drop the connection before the answer left: a `500 Network connection lost.` from
 * `wrangler dev`'s proxy, without CORS, for 5 MB and more; left unread, a reset connection. Read to its end, the
 * 413 leaves with CORS (tests/mcp.test.ts over HTTP).
 */
export function declaresTooLargeBody(request: Request): boolean {
  const declared = Number(request.headers.get('Content-Length') ?? '0');
  return Number.isFinite(declared) && declared > UNREAD_BODY_READ_LIMIT_BYTES;
}

/**
 * Reads what an answer left of the request's body. A connection can carry the next request only once this one
 * was read to its end: the local runtime (`wrangler dev`, whose body-draining middleware a prebuilt worker does
 * not get) otherwise drops it, and its proxy answers the next request on it `500 Network connection lost.`.
 * A body handed to a copy of the request, or already read, is locked: nothing is left to read here.
 */
export async function readRestOfBody(request: Request): Promise<void> {
  const body = request.body;
  // A body declared too large was refused unread (declaresTooLargeBody): reading a part and cancelling would
  // have the local runtime drop the connection before the answer leaves (its proxy then answers 500).
  if (body === null || body.locked) return;
  const limit = declaresTooLargeBody(request) ? Number.POSITIVE_INFINITY : UNREAD_BODY_READ_LIMIT_BYTES;
  const reader = body.getReader();
  try {
    let received = 0;
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      received += chunk.value.byteLength;
      if (received > limit) {
        await reader.cancel();
        return;
      }
    }
  } catch (error) {
    // The client went away mid-body: nothing to keep the connection for.
    console.warn('the rest of a request body could not be read', error);
  }
}
