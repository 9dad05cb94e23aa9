import { boardFromSummaries, statusFromSummary } from '../../src/core/board.ts';
import { summariesOf } from '../../src/core/dataset.ts';
import type { EdgeContext } from '../../src/server/context.ts';
import { conditionalJson } from '../../src/server/http/conditional.ts';
import type { EdgeHandlers } from '../route-handler.ts';

/** GET /api/status (spec 4.1): the board at request time, from the build's per-provider summaries. */
export async function handleStatus(context: EdgeContext): Promise<Response> {
  const dataset = await context.dataset();
  return conditionalJson(context.request, boardFromSummaries(summariesOf(dataset), context.now));
}

export const STATUS_HANDLERS = {
  getStatus: handleStatus,
  /** GET /api/status/<provider>: one ProviderStatus (an unknown provider never gets here: 404 `invalid_provider`). */
  getProviderStatus: async (context, { params }) => {
    const { providers } = await context.dataset();
    return conditionalJson(context.request, statusFromSummary(providers[params.provider].summary, context.now));
  },
} satisfies Partial<EdgeHandlers>;
