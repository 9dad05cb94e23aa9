import { TIMELINE_LIMIT } from './api/query.ts';
import { buildTimelineResponse } from './api/timeline.ts';
import { stamped } from './build-stamp.ts';
import {
  buildEdgeDataset,
  EDGE_DATASET_PATH,
  BOARD_PAGE_DATASET_PATH,
  boardPageDataset,
  DATASET_SLICES,
  datasetSlice,
  EDGE_SUMMARIES_PATH,
  EdgeDatasetFileSchema,
  edgeSummaries,
  EdgeSummariesFileSchema,
  type PublishedEvents,
} from './dataset.ts';
import { buildRecordShard, RECORD_SHARD_COUNT, RecordShardFileSchema, recordShardPath } from './event-records.ts';
import type { EventProvenance } from './provenance.ts';
import { ForecastTrackRecordSchema } from './forecast/schemas.ts';
import { forecastTrackRecord } from './forecast/track-record.ts';
import {
  buildProviderPageData,
  providerPagePath,
  ProviderPageFileSchema,
  providerSlotFacts,
  ProviderSlotFactsFileSchema,
  providerSlotFactsPath,
} from './provider-page.ts';
import { renderAnnouncementEvents } from './render/announcement-calendar.ts';
import { calendarEventsPath, providerFeedPath } from './built-paths.ts';
import { FEED_FORMATS, type FeedFormat } from './render/feed-formats.ts';
import { FEED_RENDERERS } from './render/feeds.ts';
import { renderTimelineCsv } from './render/timeline-csv.ts';
import { PROVIDERS, type Provider } from './vocabulary.ts';

/**
 * The built files the edge reads, each a function of one build's published events: the Astro pages of these
 * paths (src/pages) serve exactly these bodies, and the in-process tests build the same files from a fixture
 * without running Astro. The data files are validated here, once, and stamped (build-stamp.ts).
 */

export interface BuildInput {
  /** The build's published events, newest first, and its time. */
  published: PublishedEvents;
  baseUrl: string;
  buildId: string;
  /** Each published event's provenance from git (src/node/provenance.ts); absent or missing ids: unknown. */
  provenance?: ReadonlyMap<string, EventProvenance>;
}

const NO_PROVENANCE: ReadonlyMap<string, EventProvenance> = new Map();

type FileBody = (input: BuildInput) => string;

const builtAt = ({ published }: BuildInput) => new Date(published.builtAt);

const feed =
  (format: FeedFormat, provider?: Provider): FileBody =>
  ({ published, baseUrl }) =>
    FEED_RENDERERS[format]({ events: published.events, provider, baseUrl, builtAt: published.builtAt });

/** The calendar's announcements; the edge adds the estimates and the frame at request time. */
const calendarEvents =
  (provider: Provider | undefined): FileBody =>
  ({ published, baseUrl }) =>
    renderAnnouncementEvents({ events: published.events, provider, baseUrl, builtAt: published.builtAt });

const recordShard =
  (shard: number): FileBody =>
  (input) =>
    JSON.stringify(
      RecordShardFileSchema.parse(
        stamped(
          buildRecordShard(shard, input.published.events, input.provenance ?? NO_PROVENANCE, input.baseUrl),
          input.buildId,
        ),
      ),
    );

/** A provider page's data as of the build (provider-page.ts): its file, and the facts its slots read. */
const providerPageData = (provider: Provider, input: BuildInput) =>
  buildProviderPageData(provider, input.published.events, builtAt(input), input.provenance ?? NO_PROVENANCE);

const providerPage =
  (provider: Provider): FileBody =>
  (input) =>
    JSON.stringify(ProviderPageFileSchema.parse(stamped(providerPageData(provider, input), input.buildId)));

/** What the provider page's slots read of its data file (provider-page.ts, `providerSlotFacts`). */
const providerSlots =
  (provider: Provider): FileBody =>
  (input) =>
    JSON.stringify(
      ProviderSlotFactsFileSchema.parse(stamped(providerSlotFacts(providerPageData(provider, input)), input.buildId)),
    );

export const PRERENDERED_FILES: Readonly<Record<string, FileBody>> = {
  [EDGE_DATASET_PATH]: (input) =>
    JSON.stringify(
      EdgeDatasetFileSchema.parse(stamped(buildEdgeDataset(input.published.events, builtAt(input)), input.buildId)),
    ),
  [BOARD_PAGE_DATASET_PATH]: (input) =>
    JSON.stringify(
      EdgeDatasetFileSchema.parse(
        stamped(boardPageDataset(buildEdgeDataset(input.published.events, builtAt(input))), input.buildId),
      ),
    ),
  ...Object.fromEntries(
    Object.values(DATASET_SLICES).map(({ path, perProvider }) => [
      path,
      (input: BuildInput) =>
        JSON.stringify(
          EdgeDatasetFileSchema.parse(
            stamped(datasetSlice(buildEdgeDataset(input.published.events, builtAt(input)), perProvider), input.buildId),
          ),
        ),
    ]),
  ),
  [EDGE_SUMMARIES_PATH]: (input) =>
    JSON.stringify(
      EdgeSummariesFileSchema.parse(
        stamped(edgeSummaries(buildEdgeDataset(input.published.events, builtAt(input))), input.buildId),
      ),
    ),
  '/api/timeline': (input) =>
    JSON.stringify(
      buildTimelineResponse(
        buildEdgeDataset(input.published.events, builtAt(input)),
        { provider: 'all', limit: TIMELINE_LIMIT.default },
        builtAt(input),
      ),
    ),
  '/api/timeline.csv': ({ published, baseUrl }) =>
    renderTimelineCsv(published.events.slice(0, TIMELINE_LIMIT.default), baseUrl),
  // The replay is history-sized work, so it is done here once per build, never at the edge.
  '/api/forecast/track-record': (input) =>
    JSON.stringify(ForecastTrackRecordSchema.parse(forecastTrackRecord(input.published.events, builtAt(input)))),
  [FEED_FORMATS.rss.path]: feed('rss'),
  [FEED_FORMATS.atom.path]: feed('atom'),
  [FEED_FORMATS.json.path]: feed('json'),
  [calendarEventsPath(undefined)]: calendarEvents(undefined),
  ...Object.fromEntries(PROVIDERS.map((provider) => [calendarEventsPath(provider), calendarEvents(provider)])),
  ...Object.fromEntries(PROVIDERS.map((provider) => [providerPagePath(provider), providerPage(provider)])),
  ...Object.fromEntries(PROVIDERS.map((provider) => [providerSlotFactsPath(provider), providerSlots(provider)])),
  ...Object.fromEntries(
    Array.from({ length: RECORD_SHARD_COUNT }, (_, shard) => [recordShardPath(shard), recordShard(shard)]),
  ),
  ...Object.fromEntries(
    PROVIDERS.flatMap((provider) =>
      (Object.keys(FEED_FORMATS) as FeedFormat[]).map((format) => [
        providerFeedPath(format, provider),
        feed(format, provider),
      ]),
    ),
  ),
};
