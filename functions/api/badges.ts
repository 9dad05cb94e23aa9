import { statusFromSummary } from '../../src/core/board.ts';
import { ProviderSchema } from '../../src/core/enums.ts';
import { badgeContent, renderBadgeSvg, renderShieldsEndpoint } from '../../src/core/render/badge.ts';
import type { EdgeContext } from '../../src/server/context.ts';
import { CACHE, invalidProvider, jsonResponse, textResponse } from '../../src/server/http/responses.ts';
import { BADGE_SECURITY_HEADERS } from '../../src/server/http/security-headers.ts';

const BADGE_PATH = /^([^/.]+)\.(svg|json)$/;

/** GET /badge/<provider>.svg (an embeddable badge) and /badge/<provider>.json (a shields.io endpoint). */
export async function handleBadge(context: EdgeContext, file: string): Promise<Response> {
  const [, name, format] = BADGE_PATH.exec(file) ?? [];
  const provider = ProviderSchema.safeParse(name);
  if (!provider.success) return invalidProvider();
  const { providers } = await context.dataset();
  const content = badgeContent(statusFromSummary(providers[provider.data].summary, context.now));
  return format === 'svg'
    ? textResponse(renderBadgeSvg(content), 'image/svg+xml; charset=utf-8', CACHE.api, BADGE_SECURITY_HEADERS)
    : jsonResponse(renderShieldsEndpoint(content), { headers: { 'Cache-Control': CACHE.api } });
}
