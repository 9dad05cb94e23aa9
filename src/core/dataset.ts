import { z } from 'zod';
import { BuildStampSchema } from './build-stamp.ts';
import { lazySchema } from './lazy-schema.ts';
import { TIMELINE_LIMIT, type ProviderFilter } from './api/query.ts';
import { ProviderSchema } from './enums.ts';
import { FEED_ITEM_LIMIT } from './render/feed-formats.ts';
import { forecastScores, ForecastScoresSchema } from './forecast/skill.ts';
import { providerForecastTrackRecord } from './forecast/track-record.ts';
import { ProviderSummarySchema, summarizeProvider, type ProviderSummary } from './history.ts';
import { compareNewestFirst, eventsKnownAt, isPublished } from './ordering.ts';
import { EventSchema, UtcTimestampSchema, type Event } from './schemas.ts';
import { PROVIDERS, type EventKind, type Provider } from './vocabulary.ts';

/**
 * What the build hands to the edge. The worker never reads the whole history: it reads one small data set
 * (`/data/board.json`) whose size does not grow with the history: per provider, the summary the board is
 * derived from and the newest events any request can ask for (a timeline holds at most 500). The whole
 * history is published too, for people and scripts, one file per provider and year (`/data/events/…`), so
 * that no file outgrows the platform's 25 MiB per asset.
 *
 * The summaries alone are also written to their own file (`/data/summaries.json`, about 15 KiB): the status,
 * the forecast and the badges need nothing else, and a cold isolate answering them would otherwise parse the
 * 1,500 newest events as well (550 KiB at 10,000 events, most of the first request's CPU; docs/performance.md).
 */

export const EDGE_DATASET_PATH = '/data/board.json';
/** Not a public address of its own: the edge's copy of the summaries that `/data/board.json` also holds. */
export const EDGE_SUMMARIES_PATH = '/data/summaries.json';
/**
 * What the board page (`/`, `/zh`) reads: the edge data set with each provider's 10 newest events only (its
 * "latest" list merges the 10 newest across providers), so that its first request parses about 20 KiB, not 550.
 */
export const BOARD_PAGE_DATASET_PATH = '/data/board-page.json';
export const BOARD_PAGE_RECENT_EVENTS = 10;
export const boardPageDataset = (dataset: EdgeDataset): EdgeDataset => datasetSlice(dataset, BOARD_PAGE_RECENT_EVENTS);
/**
 * The slices of the edge data set that the outputs the build writes whole read when the journal holds one of their
 * events and the edge writes them (src/core/journal/built-outputs.ts): each provider's newest events, as many as
 * the output can list, so that a cold isolate writing a feed parses about 120 KiB at 10,000 events, not 550
 * (docs/performance.md, "The journal's cost"). The feeds list at most 100 of a selection (`FEED_ITEM_LIMIT`); the
 * default timeline 200 across the providers, so each provider's 200 newest. The calendars' announcements read the
 * whole data set: they place a journal event among up to 1,000 built ones by the longest list there is.
 */
export const DATASET_SLICES = {
  feed: { path: '/data/feed-events.json', perProvider: FEED_ITEM_LIMIT },
  timeline: { path: '/data/timeline-events.json', perProvider: TIMELINE_LIMIT.default },
} as const;
export type DatasetSlice = keyof typeof DATASET_SLICES;

/**
 * The smallest slice that holds each provider's `perProvider` newest events, or null when only the whole data set
 * does: a filtered timeline of 50 reads the feeds' slice (about 120 KiB at 10,000 events), not 550 KiB.
 */
export function sliceHolding(perProvider: number): DatasetSlice | null {
  let smallest: DatasetSlice | null = null;
  for (const slice of Object.keys(DATASET_SLICES) as DatasetSlice[]) {
    const held = DATASET_SLICES[slice].perProvider;
    if (held >= perProvider && (smallest === null || held < DATASET_SLICES[smallest].perProvider)) smallest = slice;
  }
  return smallest;
}

/** The edge data set with each provider's `perProvider` newest events only; all else as it is. */
export const datasetSlice = (dataset: EdgeDataset, perProvider: number): EdgeDataset => ({
  ...dataset,
  providers: Object.fromEntries(
    Object.entries(dataset.providers).map(([provider, data]) => [
      provider,
      { ...data, recent: data.recent.slice(0, perProvider) },
    ]),
  ) as EdgeDataset['providers'],
});
export const HISTORY_INDEX_PATH = '/data/events/index.json';
export const historyFilePath = (provider: Provider, year: number) => `/data/events/${provider}/${year}.json`;

/** No answer needs more of one provider's newest events than the longest timeline. */
export const RECENT_EVENTS_PER_PROVIDER = TIMELINE_LIMIT.max;

/*
 * The data files' schemas are made on first use (src/core/lazy-schema.ts): the build checks what it writes with
 * them, and the worker trusts its build's files (hasEdgeDatasetFrame below).
 */
export const PublishedEventsSchema = lazySchema(() =>
  z
    .strictObject({
      builtAt: UtcTimestampSchema,
      events: z.array(EventSchema).describe('published events, newest first'),
    })
    .meta({ id: 'PublishedEvents' }),
);
export type PublishedEvents = z.infer<typeof PublishedEventsSchema>;

const ProviderDataSchema = lazySchema(() =>
  z.strictObject({
    summary: ProviderSummarySchema,
    recent: z.array(EventSchema).max(RECENT_EVENTS_PER_PROVIDER).describe('newest first'),
    forecastScores: ForecastScoresSchema.unwrap().describe(
      'the forecast’s Brier scores beside the base rate’s, as of the build (GET /api/forecast/track-record): the board says where the forecast has done worse',
    ),
  }),
);

/** One entry of `schema` for every provider, and no other key. */
const perProvider = <Schema extends z.ZodType>(schema: Schema) =>
  z.strictObject(Object.fromEntries(PROVIDERS.map((provider) => [provider, schema])) as Record<Provider, Schema>);

export const EdgeDatasetSchema = lazySchema(() =>
  z.strictObject({
    builtAt: UtcTimestampSchema,
    providers: perProvider(ProviderDataSchema),
  }),
);
export type EdgeDataset = z.infer<typeof EdgeDatasetSchema>;

/** Every provider's summary, as the status, the forecast and the badges read them. */
export type EdgeSummaries = Record<Provider, ProviderSummary>;

export const EdgeSummariesSchema = lazySchema(() =>
  z.strictObject({
    builtAt: UtcTimestampSchema,
    summaries: perProvider(ProviderSummarySchema),
  }),
);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether `summary` has the lists the board and the forecast walk, for `provider`. */
const hasSummaryFrame = (summary: unknown, provider: Provider): boolean =>
  isObject(summary) &&
  summary.provider === provider &&
  typeof summary.asOf === 'string' &&
  Array.isArray(summary.recentResets) &&
  Array.isArray(summary.recentGapsMs) &&
  Array.isArray(summary.pendingResets) &&
  Array.isArray(summary.hourHistogramUtc);

/**
 * Whether a stamped `/data/board.json` has the frame every reader walks: per provider a `summary` with its
 * lists and a `recent` list. The edge does not zod-parse the file on a cold start (docs/performance.md: it cost
 * up to 270 ms of CPU); this look at a dozen fields costs microseconds and turns a file of the right stamp but
 * the wrong frame into "the data cannot be read" (a 503 page, a 500 `internal_error`) instead of a TypeError
 * thrown in the middle of rendering a page. The events inside are the build's, validated when it wrote them.
 */
export function hasEdgeDatasetFrame(value: unknown): boolean {
  if (!isObject(value) || typeof value.builtAt !== 'string' || !isObject(value.providers)) return false;
  const { providers } = value;
  return PROVIDERS.every((provider) => {
    const data = providers[provider];
    return (
      isObject(data) &&
      Array.isArray(data.recent) &&
      isObject(data.forecastScores) &&
      hasSummaryFrame(data.summary, provider)
    );
  });
}

/** The same look at a stamped `/data/summaries.json`: per provider a summary with its lists. */
export function hasEdgeSummariesFrame(value: unknown): boolean {
  if (!isObject(value) || typeof value.builtAt !== 'string' || !isObject(value.summaries)) return false;
  const { summaries } = value;
  return PROVIDERS.every((provider) => hasSummaryFrame(summaries[provider], provider));
}

/** `/data/board.json` as the build writes it: the data set with the build's stamp. */
export const EdgeDatasetFileSchema = lazySchema(() =>
  EdgeDatasetSchema.unwrap().extend({ stamp: BuildStampSchema }).meta({ id: 'EdgeDataset' }),
);

/** `/data/summaries.json` as the build writes it: the data set's summaries with the build's stamp. */
export const EdgeSummariesFileSchema = lazySchema(() =>
  EdgeSummariesSchema.unwrap().extend({ stamp: BuildStampSchema }),
);

export const HistoryIndexSchema = lazySchema(() =>
  z
    .strictObject({
      builtAt: UtcTimestampSchema,
      files: z.array(
        z.strictObject({ provider: ProviderSchema, year: z.int(), events: z.int().positive(), path: z.string() }),
      ),
    })
    .meta({ id: 'HistoryIndex' }),
);
export type HistoryIndex = z.infer<typeof HistoryIndexSchema>;

/** The whole history cut into one file per provider and year (UTC year of `announcedAt`), newest first within. */
export function historyFiles(
  published: PublishedEvents,
): { provider: Provider; year: number; file: PublishedEvents }[] {
  const groups = new Map<string, { provider: Provider; year: number; events: Event[] }>();
  for (const event of published.events) {
    const year = new Date(event.announcedAt).getUTCFullYear();
    const key = `${event.provider}/${year}`;
    const group = groups.get(key) ?? { provider: event.provider, year, events: [] };
    group.events.push(event);
    groups.set(key, group);
  }
  return [...groups.values()].map(({ provider, year, events }) => ({
    provider,
    year,
    file: { builtAt: published.builtAt, events },
  }));
}

export const historyIndex = (published: PublishedEvents): HistoryIndex => ({
  builtAt: published.builtAt,
  files: historyFiles(published)
    .map(({ provider, year, file }) => ({
      provider,
      year,
      events: file.events.length,
      path: historyFilePath(provider, year),
    }))
    .sort((a, b) => b.year - a.year || (a.provider < b.provider ? -1 : 1)),
});

export const publishEvents = (events: readonly Event[], builtAt: Date): PublishedEvents => ({
  builtAt: builtAt.toISOString(),
  events: eventsKnownAt(events, builtAt).filter(isPublished).sort(compareNewestFirst),
});

export function buildEdgeDataset(events: readonly Event[], builtAt: Date): EdgeDataset {
  const published = publishEvents(events, builtAt).events;
  const providers = Object.fromEntries(
    PROVIDERS.map((provider) => [
      provider,
      {
        summary: summarizeProvider(provider, published, builtAt),
        recent: published.filter((event) => event.provider === provider).slice(0, RECENT_EVENTS_PER_PROVIDER),
        forecastScores: forecastScores(providerForecastTrackRecord(provider, published, builtAt)),
      },
    ]),
  ) as EdgeDataset['providers'];
  return { builtAt: builtAt.toISOString(), providers };
}

export const summariesOf = (dataset: EdgeDataset): EdgeSummaries =>
  Object.fromEntries(PROVIDERS.map((provider) => [provider, dataset.providers[provider].summary])) as EdgeSummaries;

/** The summaries' own file: the data set's summaries and its build time, nothing else. */
export const edgeSummaries = (dataset: EdgeDataset): z.infer<typeof EdgeSummariesSchema> => ({
  builtAt: dataset.builtAt,
  summaries: summariesOf(dataset),
});

/** The newest `limit` events of one provider or of all three (a merge of the per-provider lists). */
export function recentEvents(dataset: EdgeDataset, provider: ProviderFilter, limit: number, kind?: EventKind): Event[] {
  // A kind filter looks at each provider's newest events that the data set holds (the build keeps 500).
  const listOf = (name: Provider) =>
    kind === undefined
      ? dataset.providers[name].recent
      : dataset.providers[name].recent.filter((event) => event.kind === kind);
  if (provider !== 'all') return listOf(provider).slice(0, limit);
  const lists = PROVIDERS.map(listOf);
  const positions = lists.map(() => 0);
  const merged: Event[] = [];
  while (merged.length < limit) {
    let best = -1;
    for (const [index, list] of lists.entries()) {
      const candidate = list[positions[index]!];
      if (
        candidate !== undefined &&
        (best === -1 || compareNewestFirst(candidate, lists[best]![positions[best]!]!) < 0)
      )
        best = index;
    }
    if (best === -1) break;
    merged.push(lists[best]![positions[best]!]!);
    positions[best]! += 1;
  }
  return merged;
}
