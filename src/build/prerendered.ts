import { PRERENDERED_FILES } from '../core/prerendered.ts';
import { BASE_URL } from '../server/base-url.ts';
import { buildStampId, buildTimeEvents, buildTimeProvenance } from './dataset.ts';

/** A prerendered page's body: the core's file of that path, from this build's events and their provenance. */
export async function prerenderedResponse(path: string): Promise<Response> {
  const body = PRERENDERED_FILES[path];
  if (body === undefined) throw new Error(`no prerendered file is described for ${path} (src/core/prerendered.ts)`);
  const [published, provenance] = await Promise.all([buildTimeEvents(), buildTimeProvenance()]);
  return new Response(body({ published, baseUrl: BASE_URL, buildId: buildStampId(), provenance }));
}
