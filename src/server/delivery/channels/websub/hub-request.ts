import { readRequestBody } from '@modelcontextprotocol/sdk/server/requestBody.js';
import type { QueryIssue } from '../../../../core/api/query.ts';
import { findTopic } from '../../../../core/websub/topics.ts';
import { parseWebSubForm, WEBSUB_BODY_MAX_BYTES } from '../../../../core/websub/request.ts';
import { BASE_URL } from '../../../base-url.ts';
import type { EdgeContext } from '../../../context.ts';
import { secondsLeftInWindow, withinRateLimit } from '../../../http/rate-limit.ts';
import { isFormBody } from '../../../http/request.ts';
import { channelFull, invalidRequest, rateLimited, webSubUnavailable } from '../../../http/responses.ts';
import { allowsLoopbackReceivers } from '../../../loopback.ts';
import { subscriberCap } from '../../caps.ts';
import type { VerifyMessage } from '../../messages.ts';
import { wouldPassCap } from '../../subscribers.ts';
import { type WebSubVerifyRequest, webSubKey } from './index.ts';

/** As push's writes: D1 and the queue answer again within seconds once a lock or an overload passes. */
const RETRY_AFTER_SECONDS = 30;

const issue = (code: string, message: string): QueryIssue => ({ code, path: [], message });

/**
 * `POST /websub` (WebSub §5.1), checked in push's order: the write limit every channel shares (bad requests count
 * too), the media type, the size, the form, the verification limit (each valid request makes the hub send one GET),
 * then the hub being available and not full. A valid request is `202` at once; the verification of intent (§5.3)
 * runs from the delivery queue (index.ts), and only the callback's confirmation makes or ends the subscription. It
 * needs the state database and the queue, nothing of another channel's.
 */
export async function handleHubRequest(context: EdgeContext): Promise<Response> {
  const { request, env } = context;
  if (env.WRITE_LIMITER !== undefined && !(await withinRateLimit(env.WRITE_LIMITER, request, 'WebSub')))
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
    { allowLoopbackReceiver: allowsLoopbackReceivers(env) },
    (text) => findTopic(BASE_URL, text)?.url,
  );
  if (!parsed.ok) return invalidRequest(parsed.issues);
  if (env.VERIFY_LIMITER !== undefined && !(await withinRateLimit(env.VERIFY_LIMITER, request, 'Verification')))
    return rateLimited(secondsLeftInWindow(context.now));
  const { DB: db, DELIVERY_QUEUE: queue } = env;
  if (db === undefined || queue === undefined) return webSubUnavailable(RETRY_AFTER_SECONDS);
  const form = parsed.value;
  const verifyRequest: WebSubVerifyRequest = {
    mode: form['hub.mode'],
    topic: form['hub.topic'],
    callback: form['hub.callback'],
    leaseSeconds: form['hub.lease_seconds'],
    secret: form['hub.secret'] ?? null,
  };
  const message: VerifyMessage = {
    type: 'verify',
    channel: 'websub',
    request: verifyRequest,
    at: context.now.toISOString(),
  };
  try {
    const key = webSubKey(verifyRequest.topic, verifyRequest.callback);
    const cap = subscriberCap('websub', env.SUBSCRIBER_CAPS);
    if (verifyRequest.mode === 'subscribe' && (await wouldPassCap(db, 'websub', key, cap)))
      return channelFull('websub');
    await queue.send(message, { contentType: 'json' });
  } catch (error) {
    console.error('websub queue unavailable', error);
    return webSubUnavailable(RETRY_AFTER_SECONDS);
  }
  return new Response(null, { status: 202 });
}
