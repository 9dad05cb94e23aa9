import { boardFromSummaries } from '../../src/core/board.ts';
import { recentEvents, summariesOf } from '../../src/core/dataset.ts';
import type { Locale } from '../../src/core/enums.ts';
import { MARKDOWN_LATEST_COUNT, renderBoardMarkdown } from '../../src/core/render/markdown.ts';
import type { EdgeContext } from '../context.ts';
import { CACHE, CONTENT_TYPE, textResponse } from '../http/responses.ts';
import { BASE_URL } from '../site.ts';

/** GET /index.md and /zh/index.md (spec 4.6): regenerated on every request. */
export async function handleMarkdown(context: EdgeContext, locale: Locale): Promise<Response> {
  const dataset = await context.dataset();
  const board = boardFromSummaries(summariesOf(dataset), context.now);
  const events = recentEvents(dataset, 'all', MARKDOWN_LATEST_COUNT);
  return textResponse(
    renderBoardMarkdown({ board, events, baseUrl: BASE_URL, locale }),
    CONTENT_TYPE.markdown,
    CACHE.markdown,
  );
}
