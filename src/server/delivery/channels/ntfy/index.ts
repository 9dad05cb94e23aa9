import { isLocale } from '../../../../core/languages.ts';
import { z } from 'zod';
import { EventKindSchema, ProviderSchema } from '../../../../core/enums.ts';
import type { QueryIssue } from '../../../../core/api/query.ts';
import type { Transition } from '../../../../core/push/due.ts';
import {
  type NtfyChoices,
  ntfyActivationMessage,
  ntfyActivationUrl,
  ntfyMessage,
  ntfyServerRoot,
  ntfyTopicName,
} from '../../../../core/ntfy/ntfy.ts';
import { outboundAddress } from '../../../../core/outbound/address.ts';
import type { Event } from '../../../../core/schemas.ts';
import type { Locale } from '../../../../core/vocabulary.ts';
import type { DeliveryChannel, DeliveryOutcome } from '../../channel.ts';
import { askedWaitSeconds } from '../chat/post-message.ts';

/**
 * ntfy (decisions.md, "More channels"; docs/delivery.md, "ntfy"): a subscriber is a topic URL. It is stored at once
 * but with no topic rows and a 7-day end: the fan-out reads subscribers through their topic rows, so a topic not yet
 * activated is sent nothing, and one never activated is pruned with the ended subscriptions. Its first message
 * carries an activation link with a random token kept in the row; the activation page's POST checks the token, then
 * writes the topic rows and clears the end.
 */

/** The channel's fields of a subscriber: its activation token, its choices, and whether it was activated. */
export const NtfyData = z.object({
  token: z.string(),
  activated: z.boolean(),
  topics: z.array(z.string()),
  providers: z.array(ProviderSchema),
  kinds: z.array(EventKindSchema),
});
export type NtfyData = z.infer<typeof NtfyData>;

/** How long a topic waits for its activation before it is pruned. */
export const ACTIVATION_WINDOW_MS = 7 * 24 * 3600 * 1000;

const SEND_TIMEOUT_MS = 10_000;

/** A new activation token: 32 random bytes, base64url (43 characters). */
export function newActivationToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

/** Compares two tokens in time that does not depend on where they differ. */
export function sameToken(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index += 1) difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
  return difference === 0;
}

/**
 * Publishes one message as JSON to the topic's server root and reads the answer: 2xx sent; 429 and 5xx (after the
 * server's `Retry-After` when it gave one) and no answer tried again; 403, 404 and 410 (the topic refused or gone)
 * remove it; anything else failed.
 */
export async function publish(
  topicUrl: string,
  message: object,
  now: Date,
  fetcher: typeof fetch = fetch,
  deliveryId?: string,
): Promise<DeliveryOutcome & { status: number }> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  // ntfy ignores it; a receiver of our own tells a second copy by it (docs/delivery.md, "Sending").
  if (deliveryId !== undefined) headers['Idempotency-Key'] = deliveryId;
  let response: Response;
  try {
    response = await fetcher(ntfyServerRoot(topicUrl), {
      method: 'POST',
      headers,
      body: JSON.stringify(message),
      redirect: 'manual',
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
  } catch (error) {
    const reason = `could not be reached (${error instanceof Error ? error.message : String(error)})`;
    return { kind: 'retry', status: 0, reason };
  }
  const { status } = response;
  const reason = `the ntfy server answered HTTP ${status}`;
  if (status === 429 || status >= 500)
    return { kind: 'retry', status, retryAfterSeconds: await askedWaitSeconds(response, now), reason };
  await response.body?.cancel();
  if (status >= 200 && status < 300) return { kind: 'sent', status };
  if (status === 403 || status === 404 || status === 410) return { kind: 'gone', status, reason };
  return { kind: 'failed', status, reason };
}

export const ntfyChannel: DeliveryChannel = {
  name: 'ntfy',
  ready: () => true,
  accepts: (address, rules) => outboundAddress(address, rules).ok && ntfyTopicName(address) !== undefined,
  async sender({ event, transition, id }: { event: Event; transition: Transition; id: string }, context) {
    const { baseUrl, now, fetcher } = context;
    return async (subscriber) => {
      const topic = ntfyTopicName(subscriber.address);
      if (topic === undefined) return { kind: 'gone', reason: 'not a topic URL' };
      const locale: Locale = subscriber.locale ?? 'en';
      const { status: _status, ...outcome } = await publish(
        subscriber.address,
        ntfyMessage(topic, event, transition, locale, baseUrl),
        now,
        fetcher,
        id,
      );
      return outcome;
    };
  },
};

/**
 * The first message of a topic just written: its activation link. Refused for good (403: a reserved topic; 404,
 * 410, another 4xx) it is the write's issue, and the topic is not kept; a server only busy or down (429, 5xx, no
 * answer) says nothing of the topic: it stays waiting, and writing it again sends a new link.
 */
export async function sendActivation(
  request: NtfyChoices & { topic: string; locale: Locale },
  token: string,
  baseUrl: string,
  now: Date,
  fetcher: typeof fetch = fetch,
): Promise<QueryIssue | undefined> {
  const name = ntfyTopicName(request.topic) ?? '';
  const link = ntfyActivationUrl(baseUrl, request.topic, token);
  const outcome = await publish(
    request.topic,
    ntfyActivationMessage(name, request, request.locale, link),
    now,
    fetcher,
  );
  if (outcome.kind === 'sent') return undefined;
  if (outcome.kind === 'retry' || outcome.kind === 'wait') {
    console.log(`a new ntfy topic's activation message was not taken (${outcome.reason}); it waits`);
    return undefined;
  }
  return {
    code: 'topic_refused',
    path: ['topic'],
    message: `The ntfy server answered HTTP ${outcome.status} to the activation message: it does not take messages for this topic (reserved, or needs a login). Nothing was stored.`,
  };
}

/** A stored topic whose token matches, with its language and fields; `undefined` for none (or a wrong token). */
export async function findByToken(
  db: D1Database,
  topic: string,
  token: string,
): Promise<{ id: number; locale: Locale; data: NtfyData } | undefined> {
  const row = await db
    .prepare(`SELECT id, locale, data FROM subscribers WHERE channel = 'ntfy' AND key = ?1`)
    .bind(topic)
    .first<{ id: number; locale: string | null; data: string }>();
  if (row === null) return undefined;
  const data = NtfyData.safeParse(JSON.parse(row.data));
  if (!data.success || !sameToken(data.data.token, token)) return undefined;
  return { id: row.id, locale: row.locale !== null && isLocale(row.locale) ? row.locale : 'en', data: data.data };
}

/** Activates a waiting topic: its topic rows written, its end cleared, in one batch (a D1 transaction). */
export async function activate(db: D1Database, id: number, data: NtfyData): Promise<void> {
  const insert = 'INSERT OR IGNORE INTO subscriber_topics (topic, subscriber_id) VALUES (?1, ?2)';
  await db.batch([
    db
      .prepare('UPDATE subscribers SET data = ?2, expires_at = NULL, failing_since = NULL WHERE id = ?1')
      .bind(id, JSON.stringify({ ...data, activated: true })),
    ...data.topics.map((topic) => db.prepare(insert).bind(topic, id)),
  ]);
}
