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
import { handleMcp } from './mcp/handler.ts';
import { handlePushKey, handleSubscribe, handleUnsubscribe } from './api/push.ts';

/** A route's handler: called only with a method the route table allows (HEAD as GET). */
export type RouteHandler = (
  context: EdgeContext,
  params: Readonly<Record<string, string>>,
) => Promise<Response> | Response;

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
