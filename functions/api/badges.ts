import { statusFromSummary } from '../../src/core/board.ts';
import { ProviderSchema } from '../../src/core/enums.ts';
import { badgeContent, renderBadgeSvg, renderShieldsEndpoint } from '../../src/core/render/badge.ts';
import { CONTENT_TYPES } from '../../src/core/routes/policy.ts';
import type { EdgeContext } from '../../src/server/context.ts';
import { invalidProvider, jsonResponse, textResponse } from '../../src/server/http/responses.ts';
import { BADGE_SECURITY_HEADERS } from '../../src/server/http/security-headers.ts';

async function badgeFor(context: EdgeContext, name: string | undefined) {
  const provider = ProviderSchema.safeParse(name);
  if (!provider.success) return undefined;
  const summaries = await context.summaries();
  return badgeContent(statusFromSummary(summaries[provider.data], context.now));
}

/** GET /badge/<provider>.svg: an embeddable badge. */
export async function handleBadgeSvg(context: EdgeContext, params: { provider?: string }): Promise<Response> {
  const content = await badgeFor(context, params.provider);
  return content === undefined
    ? invalidProvider()
    : textResponse(renderBadgeSvg(content), CONTENT_TYPES.svg, BADGE_SECURITY_HEADERS);
}

/** GET /badge/<provider>.json: a shields.io endpoint. */
export async function handleBadgeJson(context: EdgeContext, params: { provider?: string }): Promise<Response> {
  const content = await badgeFor(context, params.provider);
  return content === undefined ? invalidProvider() : jsonResponse(renderShieldsEndpoint(content));
}
