import type { Locale } from '../../src/core/enums.ts';
import { CONTENT_TYPES } from '../../src/core/routes/policy.ts';
import { boardMarkdown } from '../../src/server/board-markdown.ts';
import type { EdgeContext } from '../../src/server/context.ts';
import { textResponse } from '../../src/server/http/responses.ts';
import type { EdgeHandlers } from '../route-handler.ts';

/** GET /index.md and /zh/index.md (spec 4.6): regenerated on every request. */
const handleMarkdown = async (context: EdgeContext, locale: Locale): Promise<Response> =>
  textResponse(await boardMarkdown(context, locale), CONTENT_TYPES.markdown);

export const MARKDOWN_HANDLERS = {
  getMarkdownEn: (context) => handleMarkdown(context, 'en'),
  getMarkdownZh: (context) => handleMarkdown(context, 'zh'),
} satisfies Partial<EdgeHandlers>;
