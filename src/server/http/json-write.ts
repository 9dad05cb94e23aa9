import { readRequestBody } from '@modelcontextprotocol/sdk/server/requestBody.js';
import type { z } from 'zod';
import { issuesOf, type QueryIssue } from '../../core/api/query.ts';
import type { EdgeContext } from '../context.ts';
import { secondsLeftInWindow, withinRateLimit } from './rate-limit.ts';
import { isJsonBody } from './request.ts';
import { invalidRequest, rateLimited } from './responses.ts';

/**
 * The subscription writes' JSON bodies (push, chat webhooks: decisions.md, "as push"), read in one order: the
 * per-IP write limit (bad bodies count too, so that probing is limited as well), the media type, the size, JSON,
 * an object, the schema. What comes after (is the feature's store there?) is the caller's.
 */

const issue = (code: string, message: string, path: (string | number)[] = []): QueryIssue => ({ code, path, message });

export type JsonWrite<T> = { ok: true; value: T } | { ok: false; response: Response };

export async function readJsonWrite<S extends z.ZodType>(
  context: EdgeContext,
  schema: S,
  maxBytes: number,
  /** False for a write whose caller counts its own key against the limit (Telegram's chat, not its servers' IP). */
  perClientLimit = true,
): Promise<JsonWrite<z.infer<S>>> {
  const { request, env } = context;
  // One budget for every subscription write (decided: "the write limit as push").
  if (
    perClientLimit &&
    env.WRITE_LIMITER !== undefined &&
    !(await withinRateLimit(env.WRITE_LIMITER, request, 'Write'))
  )
    return { ok: false, response: rateLimited(secondsLeftInWindow(context.now)) };
  if (!isJsonBody(request))
    return {
      ok: false,
      response: invalidRequest(
        [issue('unsupported_media_type', 'send the body as Content-Type: application/json')],
        415,
      ),
    };
  const body = await readRequestBody(request, maxBytes);
  if (body.tooLarge)
    return { ok: false, response: invalidRequest([issue('too_big', `the body must be at most ${maxBytes} bytes`)]) };
  let json: unknown;
  try {
    json = JSON.parse(body.text);
  } catch {
    return { ok: false, response: invalidRequest([issue('invalid_json', 'the body is not JSON')]) };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return { ok: false, response: invalidRequest([issue('invalid_type', 'the body must be a JSON object')]) };
  // Async: a schema may check with Web Crypto (push's browser key: src/core/push/subscriber-keys.ts).
  const parsed = await schema.safeParseAsync(json);
  if (!parsed.success) return { ok: false, response: invalidRequest(issuesOf(parsed.error)) };
  return { ok: true, value: parsed.data };
}

/**
 * The store's part of a write. D1 throws when its database is locked, overloaded, missing or not migrated: that is
 * the feature being unavailable for a while (`unavailable`: 503 with Retry-After, decisions.md "Outbound
 * addresses"), not a fault of the request nor a bug to hide behind `500 internal_error`. The error is logged, never
 * the body (it carries the subscriber's address).
 */
export async function storing(
  feature: string,
  unavailable: () => Response,
  write: () => Promise<Response>,
): Promise<Response> {
  try {
    return await write();
  } catch (error) {
    console.error(`${feature} store unavailable`, error);
    return unavailable();
  }
}
