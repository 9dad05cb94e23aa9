import type { Event } from '../../core/schemas.ts';
import type { DeliveryProducer, DispatchMessage } from '../delivery/messages.ts';
import { insertConfirmed } from './store.ts';

/**
 * A reviewer's decision on a draft (decisions.md, "Confirmed within a minute"), recorded once: the first decision
 * uses the draft's token, and a second (another tab, a replayed form) finds it taken. A confirmed event enters the
 * journal in the same D1 transaction, so every output shows it on its next request, and the dispatch is asked for
 * at once through the delivery queue, as a new build's first request asks for it (build-dispatch.ts).
 */

export interface DecisionBindings {
  DB: D1Database;
  DELIVERY_QUEUE?: Pick<DeliveryProducer, 'send'>;
}

export type DecisionOutcome = 'recorded' | 'decided-before';

const markDecided = (db: D1Database, draftId: string, decision: 'confirmed' | 'rejected', at: string) =>
  db
    .prepare('UPDATE watch_drafts SET decision = ?2, decided_at = ?3 WHERE id = ?1 AND decision IS NULL RETURNING id')
    .bind(draftId, decision, at);

/** Confirms `draftId` as `event` (the draft with the reviewer's edits, `verified: true`, already validated). */
export async function confirmDraft(
  env: DecisionBindings,
  draftId: string,
  event: Event,
  now: Date,
): Promise<DecisionOutcome> {
  const at = now.toISOString();
  const [decided] = await env.DB.batch<{ id: string }>([
    markDecided(env.DB, draftId, 'confirmed', at),
    // In the same transaction, and only when the decision above was taken by this call.
    insertConfirmed(env.DB, event, draftId, now, { onlyIfDecidedAt: at }),
  ]);
  if ((decided?.results.length ?? 0) === 0) return 'decided-before';
  await startJournalDispatch(env, event.id);
  return 'recorded';
}

/** Rejects `draftId`: it is never proposed again (its row keeps its post's address). */
export async function rejectDraft(env: DecisionBindings, draftId: string, now: Date): Promise<DecisionOutcome> {
  const { results } = await markDecided(env.DB, draftId, 'rejected', now.toISOString()).all<{ id: string }>();
  return results.length === 0 ? 'decided-before' : 'recorded';
}

/**
 * Asks the queue's consumer for a dispatch now: it reads the build's events with the journal and claims what is
 * due, so every channel is told within seconds. Never throws: the minute cron finds the same pairs if this fails.
 */
export async function startJournalDispatch(env: Pick<DecisionBindings, 'DELIVERY_QUEUE'>, eventId: string) {
  if (env.DELIVERY_QUEUE === undefined) return;
  const message: DispatchMessage = { type: 'dispatch', buildId: `journal:${eventId}` };
  await env.DELIVERY_QUEUE.send(message, { contentType: 'json' }).catch((error: unknown) => {
    console.error(`dispatch for the confirmed ${eventId} not queued; the next minute's cron dispatches it:`, error);
  });
}
