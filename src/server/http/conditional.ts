import { jsonResponse } from './responses.ts';
import { bytesEtag, dataEtag, ifNoneMatchHits } from './etag.ts';

/** JSON computed at the edge, with a data ETag; 304 when the client already holds the same data. */
export async function conditionalJson(request: Request, body: unknown): Promise<Response> {
  const etag = await dataEtag(body);
  if (ifNoneMatchHits(request.headers.get('If-None-Match'), etag))
    return new Response(null, { status: 304, headers: { ETag: etag } });
  return jsonResponse(body, { headers: { ETag: etag } });
}

/**
 * Every successful GET carries a validator and honours `If-None-Match` (RFC 9110 13.1.2), `*` included: the
 * handler's data ETag or the asset store's where there is one, else a weak ETag of the bytes (filtered feeds
 * and CSV, calendars, Markdown, badges). Bodies here are small (a feed is 100 items); hashing one costs well
 * under a millisecond.
 */
export async function withValidator(request: Request, response: Response): Promise<Response> {
  if ((request.method !== 'GET' && request.method !== 'HEAD') || response.status !== 200) return response;
  const etag = response.headers.get('ETag') ?? (await bytesEtag(await response.clone().arrayBuffer()));
  const headers = new Headers(response.headers);
  headers.set('ETag', etag);
  if (!ifNoneMatchHits(request.headers.get('If-None-Match'), etag)) {
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
  for (const name of ['Content-Length', 'Content-Type', 'Content-Disposition']) headers.delete(name);
  return new Response(null, { status: 304, headers });
}
