import { eventRecord, recordIn, recordShardOf } from '../../src/core/event-records.ts';
import { journalProvenance } from '../../src/core/provenance.ts';
import { BASE_URL } from '../../src/server/base-url.ts';
import type { EdgeContext } from '../../src/server/context.ts';
import { loadRecordShard } from '../../src/server/data-source.ts';
import { conditionalJson } from '../../src/server/http/conditional.ts';
import { invalidEvent } from '../../src/server/http/responses.ts';
import { REPOSITORY_URL } from '../../src/server/repository-url.ts';
import type { EdgeHandlers } from '../route-handler.ts';

/**
 * The record of a live journal event (decisions.md, "Confirmed within a minute"), or undefined: the event as
 * confirmed, its page, and a provenance that says it was confirmed through review and where its file stands
 * (`journalProvenance`). From the journal the request already read, so a hit costs no shard. Until its entry
 * retires, the journal answers for the event even once a build holds it (a minute at most: the build's first
 * dispatch retires it), with the commit its file went in by.
 */
async function journalRecord(context: EdgeContext, id: string) {
  const entry = (await context.journalEntries()).find((live) => live.event.id === id);
  const provenance = entry === undefined ? null : journalProvenance(entry, REPOSITORY_URL);
  return entry === undefined || provenance === null ? undefined : eventRecord(entry.event, provenance, BASE_URL);
}

export const EVENT_HANDLERS = {
  /**
   * GET /api/events/<id>: the event's record as the build wrote it (event, page, provenance), from the one
   * shard file its id hashes to, or the journal's record of an event confirmed since the build. A malformed id
   * is refused by the table before any file is read; an unknown one (a withdrawn one too) after.
   */
  getEvent: async (context, { params }) => {
    const confirmed = await journalRecord(context, params.id);
    if (confirmed !== undefined) return conditionalJson(context.request, confirmed);
    const shard = await loadRecordShard(context.env.ASSETS, context.url.origin, recordShardOf(params.id));
    const record = recordIn(shard, params.id);
    return record === undefined ? invalidEvent() : conditionalJson(context.request, record);
  },
} satisfies Partial<EdgeHandlers>;
