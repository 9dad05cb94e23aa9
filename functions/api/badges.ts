import { statusFromSummary } from '../../src/core/board.ts';
import type { Provider } from '../../src/core/enums.ts';
import { badgeContent, renderBadgeSvg, renderShieldsEndpoint } from '../../src/core/render/badge.ts';
import { CONTENT_TYPES } from '../../src/core/routes/policy.ts';
import type { EdgeContext } from '../../src/server/context.ts';
import { jsonResponse, textResponse } from '../../src/server/http/responses.ts';
import { BADGE_SECURITY_HEADERS } from '../../src/server/http/security-headers.ts';
import type { EdgeHandlers } from '../route-handler.ts';

async function badgeFor(context: EdgeContext, provider: Provider) {
  const summaries = await context.summaries();
  return badgeContent(statusFromSummary(summaries[provider], context.now));
}

export const BADGE_HANDLERS = {
  /** GET /badge/<provider>.svg: an embeddable badge. */
  getBadgeSvg: async (context, { params }) =>
    textResponse(renderBadgeSvg(await badgeFor(context, params.provider)), CONTENT_TYPES.svg, BADGE_SECURITY_HEADERS),
  /** GET /badge/<provider>.json: a shields.io endpoint. */
  getBadgeJson: async (context, { params }) =>
    jsonResponse(renderShieldsEndpoint(await badgeFor(context, params.provider))),
} satisfies Partial<EdgeHandlers>;
