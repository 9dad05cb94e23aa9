import { recordIn, recordShardOf } from '../../src/core/event-records.ts';
import { loadRecordShard } from '../../src/server/data-source.ts';
import { conditionalJson } from '../../src/server/http/conditional.ts';
import { invalidEvent } from '../../src/server/http/responses.ts';
import type { EdgeHandlers } from '../route-handler.ts';

export const EVENT_HANDLERS = {
  /**
   * GET /api/events/<id>: the event's record as the build wrote it (event, page, provenance), from the one
   * shard file its id hashes to. A malformed id is refused by the table before any file is read; an unknown
   * one after.
   */
  getEvent: async (context, { params }) => {
    const shard = await loadRecordShard(context.env.ASSETS, context.url.origin, recordShardOf(params.id));
    const record = recordIn(shard, params.id);
    return record === undefined ? invalidEvent() : conditionalJson(context.request, record);
  },
} satisfies Partial<EdgeHandlers>;
