import { readRequestBody } from '@modelcontextprotocol/sdk/server/requestBody.js';
import type { QueryIssue } from '../../src/core/api/query.ts';
import { findTopic } from '../../src/core/websub/topics.ts';
import { parseWebSubForm, WEBSUB_BODY_MAX_BYTES } from '../../src/core/websub/request.ts';
import { BASE_URL } from '../../src/server/base-url.ts';
import type { EdgeContext } from '../../src/server/context.ts';
import { secondsLeftInWindow, withinRateLimit } from '../../src/server/http/rate-limit.ts';
import { isFormBody } from '../../src/server/http/request.ts';
import { invalidRequest, rateLimited, webSubUnavailable } from '../../src/server/http/responses.ts';
import { allowsLoopbackReceiver, readVapidKeys } from '../../src/server/push/vapid.ts';
import type { WebSubQueueMessage } from '../../src/server/websub/messages.ts';
import { PUSH_RETRY_AFTER_SECONDS } from './push.ts';

const issue = (code: string, message: string): QueryIssue => ({ code, path: [], message });

/**
 * `POST /websub` (WebSub §5.1), checked in push's order: the write limit it shares with push (bad requests count
 * too), the media type, the size, the form, then the hub being available. A valid request is `202` at once; the
 * verification of intent (§5.3) runs from the queue, and only the callback's confirmation makes or ends the
 * subscription. The hub runs where push's delivery runs (the D1, the cron's dispatcher, which needs push
 * configured), with a queue of its own.
 */
export async function handleHubRequest(context: EdgeContext): Promise<Response> {
  const { request, env } = context;
  if (env.PUSH_WRITE_LIMITER !== undefined && !(await withinRateLimit(env.PUSH_WRITE_LIMITER, request, 'WebSub')))
    return rateLimited(secondsLeftInWindow(context.now));
  if (!isFormBody(request))
    return invalidRequest(
      [issue('unsupported_media_type', 'send the form as Content-Type: application/x-www-form-urlencoded')],
      415,
    );
  const body = await readRequestBody(request, WEBSUB_BODY_MAX_BYTES);
  if (body.tooLarge)
    return invalidRequest([issue('too_big', `the body must be at most ${WEBSUB_BODY_MAX_BYTES} bytes`)]);
  const parsed = parseWebSubForm(
    body.text,
    { allowLoopbackReceiver: allowsLoopbackReceiver(env) },
    (text) => findTopic(BASE_URL, text)?.url,
  );
  if (!parsed.ok) return invalidRequest(parsed.issues);
  const queue = env.WEBSUB_QUEUE;
  if (env.PUSH_DB === undefined || queue === undefined || readVapidKeys(env) === null)
    return webSubUnavailable(PUSH_RETRY_AFTER_SECONDS);
  const form = parsed.value;
  const message: WebSubQueueMessage = {
    type: 'websub-verify',
    mode: form['hub.mode'],
    topic: form['hub.topic'],
    callback: form['hub.callback'],
    leaseSeconds: form['hub.lease_seconds'],
    secret: form['hub.secret'] ?? null,
  };
  try {
    await queue.send(message, { contentType: 'json' });
  } catch (error) {
    console.error('websub queue unavailable', error);
    return webSubUnavailable(PUSH_RETRY_AFTER_SECONDS);
  }
  return new Response(null, { status: 202 });
}
