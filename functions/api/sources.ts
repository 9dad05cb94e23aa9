import { SOURCE_REPORT_KEY, sourcesResponse } from '../../src/core/sources.ts';
import type { EdgeContext } from '../../src/server/context.ts';
import { conditionalJson } from '../../src/server/http/conditional.ts';

/**
 * GET /api/sources: the last watch run's report from Workers KV, with its state at request time. A stored
 * value that is not a report, or a KV read that fails, is `unknown` (logged), never a server error: the
 * board still answers, and says plainly that it does not know how current it is.
 */
export async function handleSources(context: EdgeContext): Promise<Response> {
  let stored: string | null;
  try {
    stored = await context.env.SOURCE_HEALTH.get(SOURCE_REPORT_KEY);
  } catch (error) {
    console.warn('the source-health KV could not be read:', String(error));
    stored = null;
  }
  const { response, problem } = sourcesResponse(stored, context.now);
  if (problem !== null) console.warn(problem);
  return conditionalJson(context.request, response);
}
