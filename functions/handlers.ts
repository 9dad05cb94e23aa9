import { BADGE_HANDLERS } from './api/badges.ts';
import { CALENDAR_HANDLERS } from './api/calendars.ts';
import { EVENT_HANDLERS } from './api/events.ts';
import { FEED_HANDLERS } from './api/feeds.ts';
import { FORECAST_HANDLERS } from './api/forecast.ts';
import { MARKDOWN_HANDLERS } from './api/markdown.ts';
import { PUSH_HANDLERS } from './api/push.ts';
import { SOURCE_HANDLERS } from './api/sources.ts';
import { STATUS_HANDLERS } from './api/status.ts';
import { TIMELINE_HANDLERS } from './api/timeline.ts';
import { WEBHOOK_HANDLERS } from './api/webhooks.ts';
import { WEBSUB_HANDLERS } from './api/websub.ts';
import { handleMcp } from './mcp/handler.ts';
import type { EdgeHandlers } from './route-handler.ts';

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
  ...FORECAST_HANDLERS,
  ...PUSH_HANDLERS,
  ...WEBHOOK_HANDLERS,
  ...WEBSUB_HANDLERS,
  postMcp: handleMcp,
  postMcpAlias: handleMcp,
};
