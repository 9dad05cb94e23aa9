import type { Locale } from '../../src/core/enums.ts';
import { LANGUAGES, markdownEndpointId } from '../../src/core/languages.ts';
import { CONTENT_TYPES } from '../../src/core/routes/policy.ts';
import { boardMarkdown } from '../../src/server/board-markdown.ts';
import type { EdgeContext } from '../../src/server/context.ts';
import { textResponse } from '../../src/server/http/responses.ts';
import type { EdgeHandlers } from '../route-handler.ts';

/** GET /index.md, /zh/index.md (spec 4.6) and each other language's /<prefix>/index.md: regenerated per request. */
const handleMarkdown = async (context: EdgeContext, locale: Locale): Promise<Response> =>
  textResponse(await boardMarkdown(context, locale), CONTENT_TYPES.markdown);

export const MARKDOWN_HANDLERS = Object.fromEntries(
  LANGUAGES.map((language) => [
    markdownEndpointId(language.code),
    (context: EdgeContext) => handleMarkdown(context, language.code),
  ]),
) satisfies Partial<EdgeHandlers>;
