import { announcedMs, isPublished } from '../ordering.ts';
import type { Event } from '../schemas.ts';

/**
 * What the dispatcher owes subscribers at `now` (decisions.md, "Push notifications"): each published event once
 * it is announced, and a reset announced with a later `effectiveAt` a second time when that moment comes. Pure:
 * the cron gives the events it read and its clock; the `notifications` table decides what was already sent.
 */

export const TRANSITIONS = ['announced', 'effective'] as const;
export type Transition = (typeof TRANSITIONS)[number];

export interface DueNotification {
  event: Event;
  transition: Transition;
}

/** Whether a reset names a moment after its announcement: it then has an "effective" transition of its own. */
export const hasLaterEffect = (event: Event): boolean =>
  event.kind === 'reset' && event.effectiveAt !== null && Date.parse(event.effectiveAt) > announcedMs(event);

/**
 * The (event, transition) pairs due at `now`: drafts (unverified) never, events announced after `now` not yet,
 * an "effective" transition only once its time has come.
 */
export function dueNotifications(events: readonly Event[], now: Date): DueNotification[] {
  const nowMs = now.getTime();
  const due: DueNotification[] = [];
  for (const event of events) {
    if (!isPublished(event) || announcedMs(event) > nowMs) continue;
    due.push({ event, transition: 'announced' });
    if (hasLaterEffect(event) && Date.parse(event.effectiveAt as string) <= nowMs)
      due.push({ event, transition: 'effective' });
  }
  return due;
}
