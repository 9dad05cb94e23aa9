import { forecastResponse } from '../../src/core/forecast/rule.ts';
import { CONTENT_TYPES } from '../../src/core/routes/policy.ts';
import { routeById } from '../../src/core/routes/table.ts';
import type { EdgeContext } from '../../src/server/context.ts';
import { conditionalJson } from '../../src/server/http/conditional.ts';
import { withHeaders } from '../../src/server/http/responses.ts';
import type { EdgeHandlers } from '../route-handler.ts';

const TRACK_RECORD_FILE = routeById('getForecastTrackRecord').prerendered!;

/** GET /api/forecast: the chances at request time, from the build's per-provider summaries (O(20) per provider). */
export async function handleForecast(context: EdgeContext): Promise<Response> {
  return conditionalJson(context.request, forecastResponse(await context.summaries(), context.now));
}

/**
 * GET /api/forecast/track-record: the built file (the replay depends only on the events), fetched with the
 * request's If-None-Match so that the asset server's ETag answers 304.
 */
export async function handleForecastTrackRecord(context: EdgeContext): Promise<Response> {
  return withHeaders(await context.asset(TRACK_RECORD_FILE), { 'Content-Type': CONTENT_TYPES.json });
}

export const FORECAST_HANDLERS = {
  getForecast: handleForecast,
  getForecastTrackRecord: handleForecastTrackRecord,
} satisfies Partial<EdgeHandlers>;
