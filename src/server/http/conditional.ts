import { jsonResponse } from './responses.ts';
import { dataEtag, ifNoneMatchHits } from './etag.ts';

/** JSON computed at the edge, with a data ETag; 304 when the client already holds the same data. */
export async function conditionalJson(request: Request, body: unknown): Promise<Response> {
  const etag = await dataEtag(body);
  if (ifNoneMatchHits(request.headers.get('If-None-Match'), etag))
    return new Response(null, { status: 304, headers: { ETag: etag } });
  return jsonResponse(body, { headers: { ETag: etag } });
}
