import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveBoard, boardFromSummaries } from './board.ts';
import { PRERENDERED_FILES } from './prerendered.ts';
import {
  buildEdgeDataset,
  DATASET_SLICES,
  EDGE_DATASET_PATH,
  EDGE_SUMMARIES_PATH,
  EdgeDatasetSchema,
  publishEvents,
  recentEvents,
  RECENT_EVENTS_PER_PROVIDER,
  sliceHolding,
  summariesOf,
} from './dataset.ts';
import { newestEventsRead } from './api/timeline.ts';
import { MS_PER_DAY } from './ordering.ts';
import { makeEvent, NOW } from './test-events.ts';
import { PROVIDERS } from './vocabulary.ts';
import { scaled } from '../../scripts/lib/load-scaled.ts';

const events = fc
  .array(
    fc.record({
      provider: fc.constantFrom(...PROVIDERS),
      kind: fc.constantFrom('reset', 'tease', 'promo' as const),
      daysAgo: fc.integer({ min: 0, max: 400 }),
      verified: fc.constantFrom(true, true, false),
    }),
    { maxLength: 80 },
  )
  .map((list) =>
    list.map(({ provider, kind, daysAgo, verified }, index) =>
      makeEvent({
        id: `d${index}`,
        provider,
        kind,
        verified,
        announcedAt: new Date(NOW.getTime() - daysAgo * MS_PER_DAY).toISOString(),
      }),
    ),
  );

// Property tests run many cases: a generous timeout so a busy machine slows them down without failing them.
describe('the edge data set', { timeout: scaled(120_000) }, () => {
  it('serves every timeline exactly as the whole history would', () => {
    fc.assert(
      fc.property(
        events,
        fc.constantFrom('all', ...PROVIDERS),
        fc.integer({ min: 1, max: 500 }),
        (list, provider, limit) => {
          const published = publishEvents(list, NOW).events;
          const expected = published
            .filter((event) => provider === 'all' || event.provider === provider)
            .slice(0, limit);
          expect(recentEvents(buildEdgeDataset(list, NOW), provider, limit)).toEqual(expected);
        },
      ),
    );
  });

  it('gives the same board as the whole history', () => {
    fc.assert(
      fc.property(events, (list) => {
        expect(boardFromSummaries(summariesOf(buildEdgeDataset(list, NOW)), NOW)).toEqual(deriveBoard(list, NOW));
      }),
    );
  });

  it('keeps at most 500 events per provider, whatever the history, and parses with its schema', () => {
    const many = Array.from({ length: 1_600 }, (_, index) =>
      makeEvent({
        id: `m${index}`,
        provider: PROVIDERS[index % 3]!,
        announcedAt: new Date(NOW.getTime() - index * 60_000).toISOString(),
      }),
    );
    const dataset = buildEdgeDataset(many, NOW);
    for (const provider of PROVIDERS)
      expect(dataset.providers[provider].recent).toHaveLength(RECENT_EVENTS_PER_PROVIDER);
    expect(EdgeDatasetSchema.parse(JSON.parse(JSON.stringify(dataset)))).toEqual(dataset);
  });
});

describe('the summaries’ own file', () => {
  it('holds exactly the summaries and build time of the data set of the same build, with its stamp', () => {
    const list = [
      makeEvent({ id: 's1', provider: 'provider_a', announcedAt: '2026-06-01T08:00:00.000Z' }),
      makeEvent({ id: 's2', provider: 'provider_b', kind: 'tease', announcedAt: '2026-06-02T08:00:00.000Z' }),
    ];
    const input = { published: publishEvents(list, NOW), baseUrl: 'https://board.example', buildId: 'b1' };
    const board = JSON.parse(PRERENDERED_FILES[EDGE_DATASET_PATH]!(input)) as {
      builtAt: string;
      stamp: unknown;
      providers: Record<string, { summary: unknown }>;
    };
    const summaries = JSON.parse(PRERENDERED_FILES[EDGE_SUMMARIES_PATH]!(input)) as Record<string, unknown>;
    expect(summaries).toEqual({
      builtAt: board.builtAt,
      summaries: Object.fromEntries(PROVIDERS.map((provider) => [provider, board.providers[provider]!.summary])),
      stamp: board.stamp,
    });
  });
});

describe('the slices of the data set', () => {
  it('hold the data set of the same build with each provider’s newest events cut to the slice’s length', () => {
    const many = Array.from({ length: 1_000 }, (_, index) =>
      makeEvent({
        id: `n${index}`,
        provider: PROVIDERS[index % 4 === 3 ? 1 : index % 3]!,
        announcedAt: new Date(NOW.getTime() - (index + 1) * 60_000).toISOString(),
      }),
    );
    const input = { published: publishEvents(many, NOW), baseUrl: 'https://board.example', buildId: 'b1' };
    const board = JSON.parse(PRERENDERED_FILES[EDGE_DATASET_PATH]!(input)) as {
      providers: Record<string, { recent: unknown[] }>;
    };
    for (const { path, perProvider } of Object.values(DATASET_SLICES)) {
      const slice = JSON.parse(PRERENDERED_FILES[path]!(input)) as typeof board;
      expect(slice, path).toEqual({
        ...board,
        providers: Object.fromEntries(
          PROVIDERS.map((provider) => [
            provider,
            { ...board.providers[provider], recent: board.providers[provider]!.recent.slice(0, perProvider) },
          ]),
        ),
      });
      for (const provider of PROVIDERS) expect(slice.providers[provider]!.recent, path).toHaveLength(perProvider);
    }
  });

  it('answer a selection from the smallest that holds it: the feeds’ 100, the default timeline’s 200, else the whole', () => {
    expect([1, 50, 100, 101, 200, 201, 500].map(sliceHolding)).toEqual([
      'feed',
      'feed',
      'feed',
      'timeline',
      'timeline',
      null,
      null,
    ]);
    expect(newestEventsRead({ provider: 'provider_b', limit: 50 })).toBe(50);
    expect(newestEventsRead({ provider: 'all', limit: 120 })).toBe(120);
    // A kind filter looks through all that the data set holds of each provider.
    expect(newestEventsRead({ provider: 'all', limit: 5, kind: 'boost' })).toBe(500);
  });
});
