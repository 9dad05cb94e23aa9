import { deriveBoard, deriveProviderStatus } from '../../src/core/board.ts';
import { ProviderSchema } from '../../src/core/enums.ts';
import type { EdgeContext } from '../context.ts';
import { conditionalJson } from '../http/conditional.ts';
import { CACHE, invalidProvider } from '../http/responses.ts';

/** GET /api/status (spec 4.1): the board at request time. */
export async function handleStatus(context: EdgeContext): Promise<Response> {
  const { events } = await context.dataset();
  return conditionalJson(context.request, deriveBoard(events, context.now), CACHE.api);
}

/** GET /api/status/<provider>: one ProviderStatus; an unknown provider is 404 `invalid_provider`. */
export async function handleProviderStatus(context: EdgeContext, providerSegment: string): Promise<Response> {
  const provider = ProviderSchema.safeParse(providerSegment);
  if (!provider.success) return invalidProvider();
  const { events } = await context.dataset();
  return conditionalJson(context.request, deriveProviderStatus(provider.data, events, context.now), CACHE.api);
}
