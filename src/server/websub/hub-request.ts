import { readRequestBody } from '@modelcontextprotocol/sdk/server/requestBody.js';
import type { QueryIssue } from '../../core/api/query.ts';
import { findTopic } from '../../core/websub/topics.ts';
import { parseWebSubForm, WEBSUB_BODY_MAX_BYTES } from '../../core/websub/request.ts';
import { BASE_URL } from '../base-url.ts';
import type { EdgeContext } from '../context.ts';
import { secondsLeftInWindow, withinRateLimit } from '../http/rate-limit.ts';
import { isFormBody } from '../http/request.ts';
import { invalidRequest, rateLimited, webSubUnavailable } from '../http/responses.ts';
import { allowsLoopbackReceiver, readVapidKeys } from '../push/vapid.ts';
import type { WebSubQueueMessage } from './messages.ts';

/** As push's writes: D1 and the queue answer again within seconds once a lock or an overload passes. */
const RETRY_AFTER_SECONDS = 30;

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
    return webSubUnavailable(RETRY_AFTER_SECONDS);
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
    return webSubUnavailable(RETRY_AFTER_SECONDS);
  }
  return new Response(null, { status: 202 });
}
