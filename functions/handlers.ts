import { BADGE_HANDLERS } from './api/badges.ts';
import { CALENDAR_HANDLERS } from './api/calendars.ts';
import { EVENT_HANDLERS } from './api/events.ts';
import { FEED_HANDLERS } from './api/feeds.ts';
import { FORECAST_HANDLERS } from './api/forecast.ts';
import { HEALTH_HANDLERS } from './api/health.ts';
import { HOOK_HANDLERS } from './api/hooks.ts';
import { MARKDOWN_HANDLERS } from './api/markdown.ts';
import { NTFY_HANDLERS } from './api/ntfy.ts';
import { PUSH_HANDLERS } from './api/push.ts';
import { REVIEW_HANDLERS } from './api/review.ts';
import { SOURCE_HANDLERS } from './api/sources.ts';
import { STATUS_HANDLERS } from './api/status.ts';
import { TELEGRAM_HANDLERS } from './api/telegram.ts';
import { TIMELINE_HANDLERS } from './api/timeline.ts';
import { WEBHOOK_HANDLERS } from './api/webhooks.ts';
import { WEBSUB_HANDLERS } from './api/websub.ts';
import type { EdgeContext } from '../src/server/context.ts';
import type { EdgeHandlers } from './route-handler.ts';

/**
 * MCP's handler and the SDK under it, loaded by the first MCP request of an isolate: the isolate's start
 * (module evaluation, before any request) spent about 10 ms parsing and running them for every isolate, most of
 * which never answer MCP (docs/performance.md, "The cold start").
 */
const handleMcp = async (context: EdgeContext): Promise<Response> =>
  (await import('./mcp/handler.ts')).handleMcp(context);

/**
 * One handler per edge route of the table, each module offering its own routes': the type refuses a missing
 * one, and each module's `satisfies Partial<EdgeHandlers>` an unknown id or a handler of another route's input.
 */
export const HANDLERS: EdgeHandlers = {
  ...STATUS_HANDLERS,
  ...TIMELINE_HANDLERS,
  ...FEED_HANDLERS,
  ...CALENDAR_HANDLERS,
  ...MARKDOWN_HANDLERS,
  ...BADGE_HANDLERS,
  ...EVENT_HANDLERS,
  ...SOURCE_HANDLERS,
  ...HEALTH_HANDLERS,
  ...FORECAST_HANDLERS,
  ...PUSH_HANDLERS,
  ...WEBHOOK_HANDLERS,
  ...NTFY_HANDLERS,
  ...WEBSUB_HANDLERS,
  ...TELEGRAM_HANDLERS,
  ...HOOK_HANDLERS,
  ...REVIEW_HANDLERS,
  postMcp: handleMcp,
  postMcpAlias: handleMcp,
};
