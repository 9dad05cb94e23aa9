import type { EdgeContext } from '../../src/server/context.ts';
import { conditionalJson } from '../../src/server/http/conditional.ts';
import { readSourceHealth } from '../../src/server/source-health.ts';
import type { EdgeHandlers } from '../route-handler.ts';

/**
 * GET /api/sources: the newest watch report (the minute cron's in D1, or `npm run watch`'s in Workers KV), with its
 * state at request time; a bad value or a failed read is `unknown` (logged), never a server error.
 */
export async function handleSources(context: EdgeContext): Promise<Response> {
  return conditionalJson(context.request, await readSourceHealth(context.env, context.now));
}

export const SOURCE_HANDLERS = { getSources: handleSources } satisfies Partial<EdgeHandlers>;
