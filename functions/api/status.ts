import { boardFromSummaries, statusFromSummary } from '../../src/core/board.ts';
import { renderStatusText } from '../../src/core/render/status-text.ts';
import { CONTENT_TYPES } from '../../src/core/routes/policy.ts';
import type { EdgeContext } from '../../src/server/context.ts';
import { conditionalJson } from '../../src/server/http/conditional.ts';
import { dataEtag } from '../../src/server/http/etag.ts';
import { textResponse } from '../../src/server/http/responses.ts';
import type { EdgeHandlers } from '../route-handler.ts';

/** GET /api/status (spec 4.1): the board at request time, from the build's per-provider summaries. */
export async function handleStatus(context: EdgeContext): Promise<Response> {
  return conditionalJson(context.request, boardFromSummaries(await context.summaries(), context.now));
}

export const STATUS_HANDLERS = {
  getStatus: handleStatus,
  /** GET /api/status/<provider>: one ProviderStatus (an unknown provider never gets here: 404 `invalid_provider`). */
  getProviderStatus: async (context, { params }) => {
    const summaries = await context.summaries();
    return conditionalJson(context.request, statusFromSummary(summaries[params.provider], context.now));
  },
  /**
   * GET /api/status.txt: the board, or `?provider=`'s entry, as lines of text, with the data ETag its JSON has
   * (the edge app answers a matching If-None-Match with 304).
   */
  getStatusText: async (context, { query }) => {
    const summaries = await context.summaries();
    const data =
      query.provider === undefined
        ? boardFromSummaries(summaries, context.now)
        : statusFromSummary(summaries[query.provider], context.now);
    const text = renderStatusText('providers' in data ? data.providers : [data]);
    return textResponse(text, CONTENT_TYPES.text, { ETag: await dataEtag(data) });
  },
} satisfies Partial<EdgeHandlers>;
