import { PRERENDERED_FILES } from '../core/prerendered.ts';
import { BASE_URL } from '../server/base-url.ts';
import { buildStampId, buildTimeEvents, buildTimeProvenance } from './dataset.ts';

/** The core's file of `path` (src/core/prerendered.ts), from this build's events and their provenance. */
export async function prerenderedBody(path: string): Promise<string> {
  const body = PRERENDERED_FILES[path];
  if (body === undefined) throw new Error(`no prerendered file is described for ${path} (src/core/prerendered.ts)`);
  const [published, provenance] = await Promise.all([buildTimeEvents(), buildTimeProvenance()]);
  return body({ published, baseUrl: BASE_URL, buildId: buildStampId(), provenance });
}

/** A prerendered page's body: the core's file of that path. */
export const prerenderedResponse = async (path: string): Promise<Response> => new Response(await prerenderedBody(path));
