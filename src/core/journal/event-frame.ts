import { EVENT_KINDS, PROVIDERS } from '../vocabulary.ts';
import type { Event } from '../schemas.ts';

/**
 * A journal row's event is validated once, when the reviewer confirms it (the review page parses it with
 * `EventSchema`, and `insertConfirmed` writes nothing else); every request that reads the journal then looks only at
 * the fields the folds walk, as the edge trusts its build's files after a look at their stamp (src/core/dataset.ts).
 * Parsing twenty rows with `EventSchema` on a cold start cost about half of the status's 10 ms budget
 * (docs/performance.md, "The journal's cost"); this look costs microseconds. A row that fails it (written by hand,
 * or by another version of the code) is left out, never shown.
 */
export function hasEventFrame(value: unknown, id: string): value is Event {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const event = value as Record<string, unknown>;
  return (
    event.id === id &&
    event.verified === true &&
    (PROVIDERS as readonly unknown[]).includes(event.provider) &&
    (EVENT_KINDS as readonly unknown[]).includes(event.kind) &&
    typeof event.announcedAt === 'string' &&
    (event.effectiveAt === null || typeof event.effectiveAt === 'string') &&
    typeof event.scope === 'string' &&
    typeof event.sourceUrl === 'string' &&
    typeof event.summary === 'string' &&
    typeof event.sourceAccount === 'string'
  );
}
