import { boardFromSummaries, statusFromSummary } from '../../src/core/board.ts';
import { ProviderSchema } from '../../src/core/enums.ts';
import type { EdgeContext } from '../../src/server/context.ts';
import { conditionalJson } from '../../src/server/http/conditional.ts';
import { invalidProvider } from '../../src/server/http/responses.ts';

/** GET /api/status (spec 4.1): the board at request time, from the build's per-provider summaries. */
export async function handleStatus(context: EdgeContext): Promise<Response> {
  return conditionalJson(context.request, boardFromSummaries(await context.summaries(), context.now));
}

/** GET /api/status/<provider>: one ProviderStatus; an unknown provider is 404 `invalid_provider`. */
export async function handleProviderStatus(context: EdgeContext, params: { provider?: string }): Promise<Response> {
  const provider = ProviderSchema.safeParse(params.provider);
  if (!provider.success) return invalidProvider();
  const summaries = await context.summaries();
  return conditionalJson(context.request, statusFromSummary(summaries[provider.data], context.now));
}
