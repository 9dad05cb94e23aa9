import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer, type RunningServer } from '../../scripts/lib/local-server.ts';
import {
  BOARD_PAGE_DATASET_PATH,
  EDGE_DATASET_PATH,
  EDGE_SUMMARIES_PATH,
  publishEvents,
} from '../../src/core/dataset.ts';
import { PRERENDERED_FILES } from '../../src/core/prerendered.ts';
import { providerPagePath, providerSlotFactsPath } from '../../src/core/provider-page.ts';
import type { Event } from '../../src/core/schemas.ts';
import { PROVIDERS, type Provider } from '../../src/core/vocabulary.ts';
import { copyBuild, dropPageTemplates } from './served-site.ts';

/**
 * A board made for the honest rows (decisions.md, "The board on a phone"), relative to the run's clock `now`:
 *
 * - Provider A: a reset every 7 days, the last 3 days ago. Its forecast has been right every time: Brier 0 at
 *   24 h against the base rate's 0.112, 0 against 0 at 7 days (worked by hand in src/core/forecast/skill.test.ts).
 *   Nothing to warn about.
 * - Provider B: a reset every 10 days, then every 3 days, the last 12 hours ago. Its forecast has scored worse
 *   than the base rate: 0.245 against 0.222 at 24 h, 1.000 against 0.000 at 7 days (the same history as the
 *   hand-worked one there, ending half a day before `now`).
 * - Provider C: resets 8 days apart, the last 10 days ago, and a tease posted 2 days ago for a time 20 hours ago,
 *   with no reset since: "teased for <time> · not confirmed yet".
 *
 * Served as a copy of the shared build whose data files (the edge data set, the provider pages' files and the
 * forecast's track record) are written from these events by the same core functions a build uses, with the build's
 * own stamp: the pages read them at request time, so the copy serves this board (as tests/push-dispatch.test.ts
 * swaps events into a copy).
 */

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export interface HonestRows {
  events: Event[];
  /** The tease of Provider C whose time has passed. */
  passedTease: Event;
  /** The provider whose forecast scores worse than the base rate, and the one whose forecast does better. */
  worse: Provider;
  better: Provider;
}

export function honestRowsEvents(now: Date): HonestRows {
  const before = (ms: number) => new Date(now.getTime() - ms).toISOString();
  const reset = (provider: Provider, daysAgo: number): Event => ({
    id: `${provider}-honest-${String(Math.round(daysAgo * 10)).padStart(4, '0')}`,
    provider,
    kind: 'reset',
    scope: 'global',
    announcedAt: before(daysAgo * DAY_MS),
    effectiveAt: null,
    sourceUrl: `https://posts.${provider.replace('_', '-')}.example/honest/${Math.round(daysAgo * 10)}`,
    sourceAccount: `${provider}_team`,
    summary: 'Usage limits have been reset for everyone.',
    audience: [],
    verified: true,
  });
  // Days of the histories as in skill.test.ts, counted back from the moment each is scored at (now).
  const steady = [0, 7, 14, 21, 28, 35, 42, 49, 56, 63].map((day) => reset('provider_a', 66 - day));
  const changed = [0, 10, 20, 30, 40, 50, 53, 56, 59].map((day) => reset('provider_b', 59.5 - day));
  const teased = [34, 26, 18, 10].map((daysAgo) => reset('provider_c', daysAgo));
  const passedTease: Event = {
    ...reset('provider_c', 2),
    id: 'provider_c-honest-tease',
    kind: 'tease',
    effectiveAt: before(20 * HOUR_MS),
    sourceUrl: 'https://posts.provider-c.example/honest/tease',
    summary: 'Something good is coming for your limits tomorrow.',
  };
  return {
    events: [...steady, ...changed, ...teased, passedTease],
    passedTease,
    worse: 'provider_b',
    better: 'provider_a',
  };
}

/** The data files the board and provider pages read, rewritten in a copy of the built output. */
const DATA_FILES = [
  EDGE_DATASET_PATH,
  BOARD_PAGE_DATASET_PATH,
  // What /api/status and /api/forecast read (the rows' script reads those): the same summaries, on their own.
  EDGE_SUMMARIES_PATH,
  '/api/forecast/track-record',
  ...PROVIDERS.map((provider) => providerPagePath(provider)),
  ...PROVIDERS.map((provider) => providerSlotFactsPath(provider)),
];

/**
 * Copies the shared build (`builtDir`), writes the honest rows' data files into it for `now` with the build's
 * own stamp, and serves it on a server of its own. Call `stop` when done.
 */
export async function serveHonestRows(
  builtDir: string,
  now: Date,
): Promise<HonestRows & { server: RunningServer; stop: () => Promise<void> }> {
  const rows = honestRowsEvents(now);
  return { ...rows, ...(await serveEventsCopy(builtDir, rows.events, now)) };
}

/**
 * Copies the shared build (`builtDir`), writes the data files of `events` into it for `now` with the build's own
 * stamp (without the pages' templates, which only Astro writes: `dropPageTemplates`), and serves it on a server of its
 * own. Call `stop` when done.
 */
export async function serveEventsCopy(
  builtDir: string,
  events: readonly Event[],
  now: Date,
): Promise<{ server: RunningServer; stop: () => Promise<void> }> {
  const copy = await mkdtemp(path.join(tmpdir(), 'departures-board-honest-rows-'));
  await copyBuild(builtDir, copy);
  await dropPageTemplates(copy);
  const built = JSON.parse(await readFile(path.join(copy, 'client', EDGE_DATASET_PATH), 'utf8')) as {
    stamp: { buildId: string };
  };
  const input = {
    published: publishEvents([...events], now),
    baseUrl: 'http://127.0.0.1',
    buildId: built.stamp.buildId,
  };
  for (const file of DATA_FILES) {
    const body = PRERENDERED_FILES[file];
    if (body === undefined) throw new Error(`no prerendered file ${file}`);
    const target = path.join(copy, 'client', file);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, body(input));
  }
  let server: RunningServer;
  try {
    server = await startServer({ workerConfig: path.join(copy, 'server/wrangler.json') });
  } catch (error) {
    await rm(copy, { recursive: true, force: true });
    throw error;
  }
  return {
    server,
    stop: async () => {
      await server.stop();
      await rm(copy, { recursive: true, force: true });
    },
  };
}
