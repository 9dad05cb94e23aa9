import type { EdgeRouteId } from '../src/core/routes/table.ts';
import type { EdgeContext } from '../src/server/context.ts';
import { handleBadgeJson, handleBadgeSvg } from './api/badges.ts';
import { handleAnnouncementCalendar, handleWindowCalendar } from './api/calendars.ts';
import { handleFeed, redirectToFeed } from './api/feeds.ts';
import { handleEvent } from './api/events.ts';
import { handleForecast, handleForecastTrackRecord } from './api/forecast.ts';
import { handleMarkdown } from './api/markdown.ts';
import { handleSources } from './api/sources.ts';
import { handleProviderStatus, handleStatus } from './api/status.ts';
import { handleTimeline, handleTimelineCsv } from './api/timeline.ts';
import { handlePushKey, handleSubscribe, handleUnsubscribe } from './api/push.ts';

/** A route's handler: called only with a method the route table allows (HEAD as GET). */
export type RouteHandler = (
  context: EdgeContext,
  params: Readonly<Record<string, string>>,
) => Promise<Response> | Response;

/**
 * MCP's handler and the SDK under it, loaded by the first MCP request of an isolate: they are a fifth of the
 * worker's code, and the isolate's start (module evaluation, before any request) spent about 13 ms parsing and
 * running them for every isolate, most of which never answer MCP (docs/performance.md).
 */
const handleMcp: RouteHandler = async (context) => (await import('./mcp/handler.ts')).handleMcp(context);

/** One handler per edge route of the table; the type refuses a missing or an unknown one. */
export const HANDLERS = {
  getStatus: handleStatus,
  getProviderStatus: handleProviderStatus,
  getTimeline: handleTimeline,
  getTimelineCsv: handleTimelineCsv,
  getFeedRss: (context) => handleFeed(context, 'rss'),
  getFeedAtom: (context) => handleFeed(context, 'atom'),
  getFeedJson: (context) => handleFeed(context, 'json'),
  redirectFeed: redirectToFeed,
  getWindowCalendar: handleWindowCalendar,
  getAnnouncementCalendar: handleAnnouncementCalendar,
  getMarkdownEn: (context) => handleMarkdown(context, 'en'),
  getMarkdownZh: (context) => handleMarkdown(context, 'zh'),
  postMcp: handleMcp,
  postMcpAlias: handleMcp,
  getBadgeSvg: handleBadgeSvg,
  getBadgeJson: handleBadgeJson,
  getEvent: handleEvent,
  getSources: handleSources,
  getForecast: handleForecast,
  getForecastTrackRecord: handleForecastTrackRecord,
  getPushKey: handlePushKey,
  postPushSubscription: handleSubscribe,
  deletePushSubscription: handleUnsubscribe,
} satisfies Record<EdgeRouteId, RouteHandler>;
