import { deriveBoard } from '../../src/core/board.ts';
import type { Locale } from '../../src/core/enums.ts';
import { renderBoardMarkdown } from '../../src/core/render/markdown.ts';
import type { EdgeContext } from '../context.ts';
import { CACHE, CONTENT_TYPE, textResponse } from '../http/responses.ts';
import { BASE_URL } from '../site.ts';

/** GET /index.md and /zh/index.md (spec 4.6): regenerated on every request. */
export async function handleMarkdown(context: EdgeContext, locale: Locale): Promise<Response> {
  const { events } = await context.dataset();
  const board = deriveBoard(events, context.now);
  return textResponse(renderBoardMarkdown({ board, events, baseUrl: BASE_URL, locale }), CONTENT_TYPE.markdown, CACHE.markdown);
}
