import { boardFromSummaries } from '../../src/core/board.ts';
import { recentEvents, summariesOf } from '../../src/core/dataset.ts';
import type { Locale } from '../../src/core/enums.ts';
import { MARKDOWN_LATEST_COUNT, renderBoardMarkdown } from '../../src/core/render/markdown.ts';
import { CONTENT_TYPES } from '../../src/core/routes/policy.ts';
import { BASE_URL } from '../../src/server/base-url.ts';
import { SERVES_SAMPLE_DATA } from '../../src/server/sample-data.ts';
import type { EdgeContext } from '../../src/server/context.ts';
import { textResponse } from '../../src/server/http/responses.ts';
import type { EdgeHandlers } from '../route-handler.ts';

/** The board as Markdown at the request's time: the mirror's body, and MCP's `board-markdown` resource. */
export async function boardMarkdown(context: EdgeContext, locale: Locale): Promise<string> {
  const dataset = await context.dataset();
  const board = boardFromSummaries(summariesOf(dataset), context.now);
  const events = recentEvents(dataset, 'all', MARKDOWN_LATEST_COUNT);
  return renderBoardMarkdown({ board, events, baseUrl: BASE_URL, locale, sampleData: SERVES_SAMPLE_DATA });
}

/** GET /index.md and /zh/index.md (spec 4.6): regenerated on every request. */
const handleMarkdown = async (context: EdgeContext, locale: Locale): Promise<Response> =>
  textResponse(await boardMarkdown(context, locale), CONTENT_TYPES.markdown);

export const MARKDOWN_HANDLERS = {
  getMarkdownEn: (context) => handleMarkdown(context, 'en'),
  getMarkdownZh: (context) => handleMarkdown(context, 'zh'),
} satisfies Partial<EdgeHandlers>;
