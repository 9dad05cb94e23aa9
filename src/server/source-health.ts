import { SOURCE_REPORT_KEY, sourcesResponse, type SourcesResponse } from '../core/sources.ts';

/**
 * The sources' health at `now`, from the last report in Workers KV (GET /api/sources and the board's line).
 * A value that is not a report, or a read that fails, is `unknown` and logged: the board still answers.
 */
export async function readSourceHealth(kv: Pick<KVNamespace, 'get'>, now: Date): Promise<SourcesResponse> {
  let stored: string | null;
  try {
    stored = await kv.get(SOURCE_REPORT_KEY);
  } catch (error) {
    console.warn('the source-health KV could not be read:', String(error));
    stored = null;
  }
  const { response, problem } = sourcesResponse(stored, now);
  if (problem !== null) console.warn(problem);
  return response;
}
