import { beforeEach, describe, expect, it } from 'vitest';
import { stamped } from '../core/build-stamp.ts';
import { buildEdgeDataset, edgeSummaries } from '../core/dataset.ts';
import { makeEvent, NOW } from '../core/test-events.ts';
import {
  DataSourceUnavailable,
  forgetLoadedData,
  loadEdgeDataset,
  loadEdgeSummaries,
  readEdgeDatasetNow,
} from './data-source.ts';

/**
 * A `/data/board.json` with this build's stamp but not its shape is "the data cannot be read", as a missing
 * file is: the pages then answer the 503 page and the API `internal_error`, not a TypeError from a renderer.
 */

const BUILT = NOW;
const good = () => stamped(buildEdgeDataset([makeEvent({ provider: 'provider_a' })], BUILT), 'test-build');
const serving = (body: unknown) => ({ fetch: async () => Response.json(body) });
const ORIGIN = 'https://board.example';

// Each test reads as a fresh isolate: what an earlier test or file loaded would be answered from the cache.
beforeEach(forgetLoadedData);

describe('loadEdgeDataset and a stamped file of the wrong shape', () => {
  it.each([
    ['no providers', { ...good(), providers: {} }],
    ['a provider without its summary', { ...good(), providers: { ...good().providers, provider_b: { recent: [] } } }],
    [
      'recent that is not a list',
      { ...good(), providers: { ...good().providers, provider_c: { ...good().providers.provider_c, recent: 'x' } } },
    ],
    [
      'a summary without its gaps',
      {
        ...good(),
        providers: {
          ...good().providers,
          provider_a: {
            ...good().providers.provider_a,
            summary: { ...good().providers.provider_a.summary, recentGapsMs: null },
          },
        },
      },
    ],
  ])('%s: DataSourceUnavailable, from the isolate’s loader and the cron’s', async (_, body) => {
    await expect(loadEdgeDataset(serving(body), ORIGIN)).rejects.toThrow(DataSourceUnavailable);
    await expect(loadEdgeDataset(serving(body), ORIGIN)).rejects.toThrow(
      "/data/board.json carries this build's stamp but not its shape",
    );
    await expect(readEdgeDatasetNow(serving(body), ORIGIN)).rejects.toThrow(DataSourceUnavailable);
  });

  it('reads a file of the right shape', async () => {
    const dataset = await loadEdgeDataset(serving(good()), ORIGIN);
    expect(dataset.providers.provider_a.recent.length).toBe(1);
  });
});

describe('loadEdgeSummaries', () => {
  const goodSummaries = () =>
    stamped(edgeSummaries(buildEdgeDataset([makeEvent({ provider: 'provider_a' })], BUILT)), 'test-build');

  it('reads /data/summaries.json, and nothing else', async () => {
    const asked: string[] = [];
    const assets = {
      fetch: async (input: RequestInfo | URL) => {
        asked.push(new URL(String(input)).pathname);
        return Response.json(goodSummaries());
      },
    };
    const summaries = await loadEdgeSummaries(assets, ORIGIN);
    expect(asked).toEqual(['/data/summaries.json']);
    expect(summaries.provider_a.eventCount).toBe(1);
    expect(summaries.provider_b.eventCount).toBe(0);
  });

  it.each([
    ['no summaries', { ...goodSummaries(), summaries: {} }],
    [
      'a summary of another provider',
      {
        ...goodSummaries(),
        summaries: { ...goodSummaries().summaries, provider_c: goodSummaries().summaries.provider_a },
      },
    ],
    [
      'a summary without its resets',
      {
        ...goodSummaries(),
        summaries: {
          ...goodSummaries().summaries,
          provider_b: { ...goodSummaries().summaries.provider_b, recentResets: 'x' },
        },
      },
    ],
    ['no stamp', { ...goodSummaries(), stamp: undefined }],
  ])('%s: DataSourceUnavailable', async (_, body) => {
    await expect(loadEdgeSummaries(serving(body), ORIGIN)).rejects.toThrow(DataSourceUnavailable);
  });
});
