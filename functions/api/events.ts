import { recordIn, recordShardOf } from '../../src/core/event-records.ts';
import { EventIdSchema } from '../../src/core/schemas.ts';
import type { EdgeContext } from '../../src/server/context.ts';
import { loadRecordShard } from '../../src/server/data-source.ts';
import { conditionalJson } from '../../src/server/http/conditional.ts';
import { invalidEvent } from '../../src/server/http/responses.ts';

/**
 * GET /api/events/<id>: the event's record as the build wrote it (event, page, provenance), from the one
 * shard file its id hashes to. A malformed id is answered before any file is read; an unknown one after.
 */
export async function handleEvent(context: EdgeContext, params: { id?: string }): Promise<Response> {
  const id = EventIdSchema.safeParse(params.id);
  if (!id.success) return invalidEvent();
  const shard = await loadRecordShard(context.env.ASSETS, context.url.origin, recordShardOf(id.data));
  const record = recordIn(shard, id.data);
  return record === undefined ? invalidEvent() : conditionalJson(context.request, record);
}
