import { chatPlatformOf, type ChatPlatform } from '../../core/outbound/chat-platform.ts';
import { OUTBOUND_PROBLEM_MESSAGES, outboundAddress, type OutboundRules } from '../../core/outbound/address.ts';
import { backoffMs } from '../../core/watch/poll-state.ts';
import { reviewMessage } from '../../core/watch/review-message.ts';
import type { Event } from '../../core/schemas.ts';
import { REVIEW_SENDS_PER_RUN } from './run-shares.ts';
import { postChatMessage } from '../delivery/channels/chat/post-message.ts';

/**
 * Telling the review channel of new drafts (decisions.md, "Watched every minute, reviewed at once"): each draft
 * the cron stored is claimed, sent once to `REVIEW_WEBHOOK_URL` (a Discord or Slack webhook that passes the
 * outbound-address policy), and marked sent; a message the platform could not take now is tried again later.
 */

export interface ReviewChannel {
  platform: ChatPlatform;
  url: string;
  repositoryUrl: string;
}

/**
 * The review channel, or what the deployment lacks for one (each line names the setting): the secret
 * `REVIEW_WEBHOOK_URL`, and `REPOSITORY_URL` at build time, which the one-click link opens.
 */
export function reviewChannel(
  webhook: string | undefined,
  repositoryUrl: string | null,
  rules: OutboundRules,
): { channel: ReviewChannel; missing: [] } | { channel: null; missing: string[] } {
  const missing: string[] = [];
  let address: { url: string; platform: ChatPlatform } | null = null;
  if (webhook === undefined || webhook === '') missing.push('REVIEW_WEBHOOK_URL is not set');
  else {
    const outbound = outboundAddress(webhook, rules);
    const platform = outbound.ok ? chatPlatformOf(outbound.url) : null;
    if (!outbound.ok) missing.push(`REVIEW_WEBHOOK_URL ${OUTBOUND_PROBLEM_MESSAGES[outbound.problem]}`);
    else if (platform === null)
      missing.push('REVIEW_WEBHOOK_URL is neither a Discord webhook nor a Slack incoming webhook');
    else address = { url: outbound.url, platform };
  }
  if (repositoryUrl === null) missing.push('REPOSITORY_URL was not set when the site was built');
  if (address === null || repositoryUrl === null) return { channel: null, missing };
  return { channel: { ...address, repositoryUrl }, missing: [] };
}

/** Tries per message before it is given up (with backoff: about an hour of tries). */
export const REVIEW_MAX_ATTEMPTS = 8;
/** A claimed message is not claimed again for this long (a run that died while sending is retried then). */
const CLAIM_LEASE_MS = 10 * 60_000;
const RETRY_AFTER_MAX_MS = 60 * 60_000;

type SendOutcome =
  | { kind: 'sent' }
  | { kind: 'retry'; reason: string; afterMs: number }
  | { kind: 'failed'; reason: string };

/** A message the platform could not take now: after the wait it asked for (within an hour), else the backoff. */
async function post(url: string, body: object, attempts: number, now: Date): Promise<SendOutcome> {
  const outcome = await postChatMessage(url, body, now);
  if (outcome.kind === 'sent') return outcome;
  if (outcome.kind === 'wait' || outcome.kind === 'retry') {
    const asked = outcome.retryAfterSeconds;
    const afterMs = asked === undefined ? backoffMs(attempts) : Math.min(asked * 1000, RETRY_AFTER_MAX_MS);
    return { kind: 'retry', reason: outcome.reason, afterMs };
  }
  // 404: the webhook was deleted; 400, 401, 403: it is not one, or the message is refused. Trying again will not help.
  return { kind: 'failed', reason: outcome.reason };
}

interface ClaimedRow {
  id: string;
  provider: string;
  file: string;
  review_attempts: number;
}

export interface ReviewResult {
  sent: string[];
  retrying: string[];
  failed: { id: string; reason: string }[];
}

/** Sends the messages of the drafts waiting for one (the new ones first come due at once), at most a run's share. */
export async function sendWaitingReviews(db: D1Database, channel: ReviewChannel, now: Date): Promise<ReviewResult> {
  const at = now.toISOString();
  const { results: claimed } = await db
    .prepare(
      `UPDATE watch_drafts SET review_attempts = review_attempts + 1, review_next_at = ?1
       WHERE id IN (SELECT id FROM watch_drafts WHERE review_state = 'waiting' AND review_next_at <= ?2
                    ORDER BY found_at, id LIMIT ?3)
       RETURNING id, provider, file, review_attempts`,
    )
    .bind(new Date(now.getTime() + CLAIM_LEASE_MS).toISOString(), at, REVIEW_SENDS_PER_RUN)
    .all<ClaimedRow>();
  const result: ReviewResult = { sent: [], retrying: [], failed: [] };
  if (claimed.length === 0) return result;
  const outcomes = await Promise.all(
    claimed.map(async (row) => {
      const draft = { event: JSON.parse(row.file) as Event, path: `${row.provider}/${row.id}.json`, file: row.file };
      const outcome = await post(
        channel.url,
        reviewMessage(channel.platform, draft, channel.repositoryUrl),
        row.review_attempts,
        now,
      );
      if (outcome.kind === 'retry' && row.review_attempts >= REVIEW_MAX_ATTEMPTS)
        return {
          row,
          outcome: { kind: 'failed', reason: `gave up after ${row.review_attempts} tries: ${outcome.reason}` } as const,
        };
      return { row, outcome };
    }),
  );
  const updates = outcomes.map(({ row, outcome }) => {
    if (outcome.kind === 'sent') {
      result.sent.push(row.id);
      return db
        .prepare("UPDATE watch_drafts SET review_state = 'sent', review_error = NULL WHERE id = ?1")
        .bind(row.id);
    }
    if (outcome.kind === 'retry') {
      result.retrying.push(row.id);
      const next = new Date(now.getTime() + outcome.afterMs).toISOString();
      return db
        .prepare('UPDATE watch_drafts SET review_next_at = ?2, review_error = ?3 WHERE id = ?1')
        .bind(row.id, next, outcome.reason);
    }
    result.failed.push({ id: row.id, reason: outcome.reason });
    return db
      .prepare("UPDATE watch_drafts SET review_state = 'failed', review_error = ?2 WHERE id = ?1")
      .bind(row.id, outcome.reason);
  });
  await db.batch(updates);
  return result;
}
