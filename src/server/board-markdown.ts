import { recentEvents, summariesOf } from '../core/dataset.ts';
import type { Locale } from '../core/enums.ts';
import { boardAnswers } from '../core/home-page.ts';
import { MARKDOWN_LATEST_COUNT, renderBoardMarkdown } from '../core/render/markdown.ts';
import { BASE_URL } from './base-url.ts';
import type { EdgeContext } from './context.ts';
import { SERVES_SAMPLE_DATA } from './sample-data.ts';

/**
 * The board as Markdown at the request's time, from the newest events of `/data/board.json`: the body of the
 * Markdown mirror (functions/api/markdown.ts) and of MCP's `board-markdown` resource (functions/mcp/server.ts).
 */
export async function boardMarkdown(context: Pick<EdgeContext, 'now' | 'dataset'>, locale: Locale): Promise<string> {
  const dataset = await context.dataset();
  const { board, rows } = boardAnswers(summariesOf(dataset), context.now);
  const events = recentEvents(dataset, 'all', MARKDOWN_LATEST_COUNT);
  return renderBoardMarkdown({ board, rows, events, baseUrl: BASE_URL, locale, sampleData: SERVES_SAMPLE_DATA });
}
