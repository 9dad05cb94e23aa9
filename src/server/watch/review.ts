import { chatPlatformOf, type ChatPlatform } from '../../core/outbound/chat-platform.ts';
import { OUTBOUND_PROBLEM_MESSAGES, outboundAddress, type OutboundRules } from '../../core/outbound/address.ts';
import { reviewConfirmUrl } from '../../core/review/token.ts';
import { reviewMessage } from '../../core/watch/review-message.ts';
import { reviewFailureText, reviewRetryMs } from '../../core/watch/review-retry.ts';
import type { Event } from '../../core/schemas.ts';
import { REVIEW_SENDS_PER_RUN } from './run-shares.ts';
import { postChatMessage } from '../delivery/channels/chat/post-message.ts';

/**
 * Telling the review channel of new drafts (decisions.md, "Watched every minute, reviewed at once"): each draft
 * the cron stored is claimed, sent once to `REVIEW_WEBHOOK_URL` (a Discord or Slack webhook that passes the
 * outbound-address policy), and marked sent; a message the platform did not take is tried again, with a backoff up
 * to 30 minutes, until it is sent (decisions.md, "Operable").
 */

export interface ReviewChannel {
  platform: ChatPlatform;
  url: string;
  repositoryUrl: string;
  /**
   * With the secret `REVIEW_SIGNING_KEY`: each message carries the review page's confirm link (`{base_url}/review/
   * <draft id>?t=<token>`, a token for 24 hours from when the message is made); without, the editor link alone.
   */
  confirmLinks?: { signingKey: string; baseUrl: string };
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

/** A claimed message is not claimed again for this long (a run that died while sending is retried then). */
const CLAIM_LEASE_MS = 10 * 60_000;

type SendOutcome = { kind: 'sent' } | { kind: 'failed'; status: number; error: string; afterMs: number };

/**
 * One try. Whatever is not a success is a failure to try again (review-retry.ts): a 404, 401 or 403 too, since the
 * reviewer may fix the channel and the draft still needs its reviewer; a 429 or 5xx after the wait it asked for.
 */
async function post(url: string, body: object, failures: number, now: Date): Promise<SendOutcome> {
  const outcome = await postChatMessage(url, body, now);
  if (outcome.kind === 'sent') return outcome;
  const asked = outcome.kind === 'wait' || outcome.kind === 'retry' ? outcome.retryAfterSeconds : undefined;
  return {
    kind: 'failed',
    status: outcome.status,
    error: reviewFailureText(outcome.status, outcome.reason, url),
    afterMs: reviewRetryMs(failures, asked),
  };
}

interface ClaimedRow {
  id: string;
  provider: string;
  source_url: string;
  file: string;
  review_attempts: number;
}

export interface ReviewFailure {
  id: string;
  /** Tries so far, this one included. */
  attempts: number;
  /** The platform's status; 0: no answer. */
  status: number;
  error: string;
  nextAt: string;
}

export interface ReviewResult {
  sent: string[];
  /** Not sent this time: each is tried again at its `nextAt`. */
  failed: ReviewFailure[];
  /** Drafts whose post the build already records: left out of the table, their message never sent. */
  recorded: string[];
}

/**
 * The drafts among `drafts` whose post is already in the repository by other means (a published event, or a draft
 * of the built tree): no reviewer needs to be told of them any more.
 */
export type RecordedDrafts = (drafts: readonly { id: string; sourceUrl: string }[]) => Promise<Set<string>>;

/**
 * Sends the messages that are due (a new draft's at once, a failed one's at its `review_next_at`), at most a run's
 * share, the longest waiting first. A failed try leaves the message pending ('failed', with its status, reason and
 * next try) for as long as it takes; a draft whose post the build has since recorded leaves the table instead.
 */
export async function sendWaitingReviews(
  db: D1Database,
  channel: ReviewChannel,
  now: Date,
  recordedDrafts?: RecordedDrafts,
): Promise<ReviewResult> {
  const at = now.toISOString();
  const { results: claimed } = await db
    .prepare(
      `UPDATE watch_drafts SET review_attempts = review_attempts + 1, review_next_at = ?1, review_tried_at = ?2
       WHERE id IN (SELECT id FROM watch_drafts WHERE review_state IN ('waiting', 'failed') AND review_next_at <= ?2
                      AND decision IS NULL
                    ORDER BY found_at, id LIMIT ?3)
       RETURNING id, provider, source_url, file, review_attempts`,
    )
    .bind(new Date(now.getTime() + CLAIM_LEASE_MS).toISOString(), at, REVIEW_SENDS_PER_RUN)
    .all<ClaimedRow>();
  const result: ReviewResult = { sent: [], failed: [], recorded: [] };
  if (claimed.length === 0) return result;
  const recorded =
    recordedDrafts === undefined
      ? new Set<string>()
      : await recordedDrafts(claimed.map((row) => ({ id: row.id, sourceUrl: row.source_url })));
  const outcomes = await Promise.all(
    claimed
      .filter((row) => !recorded.has(row.id))
      .map(async (row) => {
        const draft = { event: JSON.parse(row.file) as Event, path: `${row.provider}/${row.id}.json`, file: row.file };
        const links = channel.confirmLinks;
        const confirmUrl =
          links === undefined ? undefined : await reviewConfirmUrl(links.signingKey, links.baseUrl, row.id, now);
        const message = reviewMessage(channel.platform, draft, channel.repositoryUrl, confirmUrl);
        return { row, outcome: await post(channel.url, message, row.review_attempts, now) };
      }),
  );
  const updates = outcomes.map(({ row, outcome }) => {
    if (outcome.kind === 'sent') {
      result.sent.push(row.id);
      return db
        .prepare(
          `UPDATE watch_drafts SET review_state = 'sent', review_error = NULL, review_status = NULL, review_sent_at = ?2
           WHERE id = ?1`,
        )
        .bind(row.id, at);
    }
    const nextAt = new Date(now.getTime() + outcome.afterMs).toISOString();
    result.failed.push({
      id: row.id,
      attempts: row.review_attempts,
      status: outcome.status,
      error: outcome.error,
      nextAt,
    });
    return db
      .prepare(
        `UPDATE watch_drafts SET review_state = 'failed', review_next_at = ?2, review_error = ?3, review_status = ?4
         WHERE id = ?1`,
      )
      .bind(row.id, nextAt, outcome.error, outcome.status);
  });
  for (const id of recorded) {
    result.recorded.push(id);
    updates.push(db.prepare("DELETE FROM watch_drafts WHERE id = ?1 AND review_state != 'sent'").bind(id));
  }
  if (updates.length > 0) await db.batch(updates);
  return result;
}
