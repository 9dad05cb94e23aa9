import type { Event } from '../../src/core/schemas.ts';
import type { Provider } from '../../src/core/vocabulary.ts';

/**
 * A board made for "One honest answer" (decisions.md), relative to the run's clock `now`:
 *
 * - Provider A, overdue with a forecast: gaps of 5, 5, 5, 5, 5, 30 and 30 days, the last reset 12 days ago. The
 *   median gap is 5 days, so the cadence estimate passed 7 days ago, and the wait (12 days) is past 1.5 × 5: Overdue.
 *   The gaps longer than the wait are the two of 30 days: no chance of a reset within 24 hours (0 of 2), and a
 *   likely window from 30 to 30 days after the last reset, 18 days ahead. The board once said "any time now" here.
 * - Provider B, a reset announced for `announcedFor` (set by the caller, a minute or so after the server is up):
 *   "Teased" with "Announced for …" while it is ahead; once it has passed, the same board says "Reset now", and the
 *   page script must show it without a reload.
 * - Provider C, a tease posted 10 days ago for 9 days ago, the latest signal, no reset since: no longer "Teased"
 *   (older than 7 days), but still flagged in its row as "teased for … · not confirmed".
 */

const DAY_MS = 86_400_000;

export interface AnswersBoard {
  events: Event[];
  /** Provider A's last reset, its passed cadence estimate and its likely window (from = to), worked by hand. */
  overdue: { provider: Provider; lastResetAt: string; estimateAt: string; windowAt: string };
  announced: Event;
  oldTease: Event;
}

export function answersBoardEvents(now: Date, announcedFor: Date): AnswersBoard {
  const at = (ms: number) => new Date(ms).toISOString();
  const before = (days: number) => at(now.getTime() - days * DAY_MS);
  const reset = (provider: Provider, daysAgo: number): Event => ({
    id: `${provider}-answer-${String(Math.round(daysAgo * 10)).padStart(4, '0')}`,
    provider,
    kind: 'reset',
    scope: 'global',
    announcedAt: before(daysAgo),
    effectiveAt: null,
    sourceUrl: `https://posts.${provider.replace('_', '-')}.example/answers/${Math.round(daysAgo * 10)}`,
    sourceAccount: `${provider}_team`,
    summary: 'Usage limits have been reset for everyone.',
    audience: [],
    verified: true,
  });
  // 12 + 30 + 30 + 5 × 5 = 97 days back for the first reset.
  const overdue = [97, 67, 37, 32, 27, 22, 17, 12].map((daysAgo) => reset('provider_a', daysAgo));
  const steady = [31, 24, 17, 10, 3].map((daysAgo) => reset('provider_b', daysAgo));
  const announced: Event = {
    ...reset('provider_b', 0.01),
    id: 'provider_b-answer-announced',
    effectiveAt: announcedFor.toISOString(),
    sourceUrl: 'https://posts.provider-b.example/answers/announced',
    summary: 'Usage limits will be reset for everyone in a minute.',
  };
  const teased = [55, 35, 15].map((daysAgo) => reset('provider_c', daysAgo));
  const oldTease: Event = {
    ...reset('provider_c', 10),
    id: 'provider_c-answer-tease',
    kind: 'tease',
    effectiveAt: before(9),
    sourceUrl: 'https://posts.provider-c.example/answers/tease',
    summary: 'Something good is coming for your limits tomorrow.',
  };
  return {
    events: [...overdue, ...steady, announced, ...teased, oldTease],
    overdue: {
      provider: 'provider_a',
      lastResetAt: before(12),
      estimateAt: before(7),
      windowAt: at(now.getTime() + 18 * DAY_MS),
    },
    announced,
    oldTease,
  };
}
