import { healthHttpStatus } from '../../src/core/health.ts';
import { CACHE_POLICIES } from '../../src/core/routes/policy.ts';
import type { EdgeContext } from '../../src/server/context.ts';
import { readHealth } from '../../src/server/health/read.ts';
import { jsonResponse } from '../../src/server/http/responses.ts';
import type { EdgeHandlers } from '../route-handler.ts';

/**
 * GET /api/health (docs/health.md): the service's parts at request time, 503 while one is failing. Read only here:
 * no other route pays for it.
 */
export async function handleHealth(context: EdgeContext): Promise<Response> {
  const health = await readHealth(context.env, context.now, context.url.origin);
  // no-store on the 503 too: the route's caching is given to successful answers only (functions/app.ts).
  return jsonResponse(health, {
    status: healthHttpStatus(health.status),
    headers: { 'Cache-Control': CACHE_POLICIES.noStore },
  });
}

export const HEALTH_HANDLERS = { getHealth: handleHealth } satisfies Partial<EdgeHandlers>;
