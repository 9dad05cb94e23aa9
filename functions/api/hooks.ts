import {
  HOOK_BODY_MAX_BYTES,
  HookForgetSchema,
  hookRequestSchema,
  newHookSecret,
  sameSecret,
} from '../../src/core/hooks/payload.ts';
import { BASE_URL } from '../../src/server/base-url.ts';
import type { EdgeContext } from '../../src/server/context.ts';
import { subscriberCap } from '../../src/server/delivery/caps.ts';
import type { HookVerifyRequest } from '../../src/server/delivery/channels/hooks/index.ts';
import type { VerifyMessage } from '../../src/server/delivery/messages.ts';
import { deleteSubscriber, wouldPassCap } from '../../src/server/delivery/subscribers.ts';
import { WRITE_RETRY_AFTER_SECONDS } from '../../src/server/delivery/write-path.ts';
import { readJsonWrite, storing } from '../../src/server/http/json-write.ts';
import { secondsLeftInWindow, withinRateLimit } from '../../src/server/http/rate-limit.ts';
import {
  channelFull,
  invalidRequest,
  jsonResponse,
  rateLimited,
  webhooksUnavailable,
} from '../../src/server/http/responses.ts';
import { allowsLoopbackReceivers } from '../../src/server/loopback.ts';
import type { ErrorBody } from '../../src/core/schemas.ts';
import type { EdgeHandlers } from '../route-handler.ts';

/**
 * Signed webhooks' routes (decisions.md, "More channels"; docs/delivery.md, "Signed webhooks"). `POST /api/hooks`
 * answers `202` with the secret, this once, and queues the verification of intent (WebSub's, from the queue): the
 * hook is stored, and sent to, only once its URL echoed the challenge. A URL already stored is refused (`400`): a
 * second POST must not hand its secret to whoever sends it. `DELETE /api/hooks` needs the URL and its secret; a
 * wrong secret and an unknown URL are the same `404 hook_not_found`, so the answer never tells that a URL is stored.
 */

const later = () => webhooksUnavailable(WRITE_RETRY_AFTER_SECONDS);

async function handleCreate(context: EdgeContext): Promise<Response> {
  const rules = { allowLoopbackReceiver: allowsLoopbackReceivers(context.env) };
  const body = await readJsonWrite(context, hookRequestSchema(rules), HOOK_BODY_MAX_BYTES);
  if (!body.ok) return body.response;
  const { env, request } = context;
  // Each valid POST makes the service send a GET: the verification limit, as WebSub's.
  if (env.VERIFY_LIMITER !== undefined && !(await withinRateLimit(env.VERIFY_LIMITER, request, 'Verification')))
    return rateLimited(secondsLeftInWindow(context.now));
  const { DB: db, DELIVERY_QUEUE: queue } = env;
  if (db === undefined || queue === undefined) return later();
  const { url, providers, kinds } = body.value;
  const secret = newHookSecret();
  const verify: HookVerifyRequest = { url, topic: `${BASE_URL}/api/hooks`, providers, kinds, secret };
  const message: VerifyMessage = { type: 'verify', channel: 'hooks', request: verify, at: context.now.toISOString() };
  return storing('hooks', later, async () => {
    const known = await db
      .prepare(`SELECT 1 AS known FROM subscribers WHERE channel = 'hooks' AND key = ?1`)
      .bind(url)
      .first<{ known: number }>();
    if (known !== null)
      return invalidRequest([
        {
          code: 'hook_exists',
          path: ['url'],
          message: 'this URL already receives; DELETE it with its secret first, then create it again',
        },
      ]);
    if (await wouldPassCap(db, 'hooks', url, subscriberCap('hooks', env.SUBSCRIBER_CAPS))) return channelFull('hooks');
    await queue.send(message, { contentType: 'json' });
    return jsonResponse({ url, providers, kinds, secret }, { status: 202 });
  });
}

async function handleDelete(context: EdgeContext): Promise<Response> {
  const body = await readJsonWrite(context, HookForgetSchema, HOOK_BODY_MAX_BYTES);
  if (!body.ok) return body.response;
  const db = context.env.DB;
  if (db === undefined || context.env.DELIVERY_QUEUE === undefined) return later();
  const { url, secret } = body.value;
  return storing('hooks', later, async () => {
    const { storedHookSecret } = await import('../../src/server/delivery/channels/hooks/index.ts');
    const stored = await storedHookSecret(db, url);
    if (stored === undefined || !sameSecret(stored, secret))
      return jsonResponse({ error: 'hook_not_found' } satisfies ErrorBody, {
        status: 404,
        headers: { 'Cache-Control': 'no-store' },
      });
    await deleteSubscriber(db, 'hooks', url);
    return new Response(null, { status: 204 });
  });
}

export const HOOK_HANDLERS = {
  postHook: handleCreate,
  deleteHook: handleDelete,
} satisfies Partial<EdgeHandlers>;
