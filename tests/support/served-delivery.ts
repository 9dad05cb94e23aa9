import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, inject } from 'vitest';
import { scaled } from '../../scripts/lib/load-scaled.ts';
import { queryLocalD1 } from '../../scripts/lib/local-d1.ts';
import { type RunningServer, startServer } from '../../scripts/lib/local-server.ts';
import { providerFeedPath } from '../../src/core/built-paths.ts';
import type { EdgeDataset } from '../../src/core/dataset.ts';
import { compareNewestFirst } from '../../src/core/ordering.ts';
import { FEED_FORMATS, type FeedFormat } from '../../src/core/render/feed-formats.ts';
import { FEED_RENDERERS } from '../../src/core/render/feeds.ts';
import type { Event } from '../../src/core/schemas.ts';
import { makeEvent } from '../../src/core/test-events.ts';
import { PROVIDERS } from '../../src/core/vocabulary.ts';
import { copyBuild } from './served-site.ts';

/**
 * The delivery path end to end (tests/push-dispatch, push-first-request, chat-webhooks, websub): a copy of the
 * served build with a state folder of its own, served with the loopback receiver allowed (a variable of this
 * server only, never of `npm start`), events published into the copy's data set (and its feeds) as a new build would, the cron
 * run at a minute the test names.
 */

export interface ServedCopy {
  /** The copy of the build (`client/`, `server/`). */
  dir: string;
  /** Its D1 and queues (wrangler's `--persist-to`). */
  state: string;
  /** The copy's data set, as the edge reads it. */
  dataFile: string;
  /** Serves the copy on its state; a restart on the same state is what a deploy is. */
  serve(): Promise<RunningServer>;
  /** Removes the copy and its state. */
  remove(): Promise<void>;
}

export async function copyServedBuild(name: string): Promise<ServedCopy> {
  const dir = await mkdtemp(path.join(tmpdir(), `departures-board-${name}-dist-`));
  const state = await mkdtemp(path.join(tmpdir(), `departures-board-${name}-state-`));
  await copyBuild(inject('builtDir'), dir);
  return {
    dir,
    state,
    dataFile: path.join(dir, 'client/data/board.json'),
    serve: () =>
      startServer({
        workerConfig: path.join(dir, 'server/wrangler.json'),
        persistTo: state,
        vars: { ALLOW_LOOPBACK_RECEIVERS: 'true' },
      }),
    async remove() {
      await rm(dir, { recursive: true, force: true });
      await rm(state, { recursive: true, force: true });
    },
  };
}

/** Puts `events`, in their order, at the head of their providers' lists in the copy's data set; returns it. */
export async function publishInCopy(copy: ServedCopy, ...events: Event[]): Promise<EdgeDataset> {
  const data = JSON.parse(await readFile(copy.dataFile, 'utf8')) as EdgeDataset;
  for (const provider of PROVIDERS)
    data.providers[provider].recent.unshift(...events.filter((event) => event.provider === provider));
  await writeFile(copy.dataFile, JSON.stringify(data));
  return data;
}

/**
 * Publishes `events` in the copy as a build would: into the data set the dispatcher reads (`publishInCopy`), and into
 * the feed files that list them, the whole feed and each of their providers' (rendered by the build's own renderers
 * for the built address, `{base_url}`: the input of a test, not its expectation). What WebSub delivers is that file.
 */
export async function publishWithFeeds(copy: ServedCopy, ...events: Event[]): Promise<void> {
  const data = await publishInCopy(copy, ...events);
  const listed = PROVIDERS.flatMap((provider) => data.providers[provider].recent).sort(compareNewestFirst);
  const providers = [...new Set(events.map((event) => event.provider))];
  for (const format of Object.keys(FEED_FORMATS) as FeedFormat[])
    for (const provider of [undefined, ...providers]) {
      const file = provider === undefined ? FEED_FORMATS[format].path : providerFeedPath(format, provider);
      const body = FEED_RENDERERS[format]({
        events: listed,
        provider,
        baseUrl: inject('baseUrl'),
        builtAt: data.builtAt,
      });
      await writeFile(path.join(copy.dir, 'client', file), body);
    }
}

/**
 * A reset of provider_a as the end-to-end tests of push and the chat webhooks publish it: announced at `announcedAt`,
 * in effect then (`effectiveAt` null) or at `effectiveAt`, its summary naming its id. The rest is test-events.ts's
 * event (its post at https://posts.provider-a.example/<id>); what it is delivered as, each test writes out itself.
 */
export const publishedReset = (id: string, announcedAt: Date, effectiveAt: Date | null): Event =>
  makeEvent({
    id,
    provider: 'provider_a',
    kind: 'reset',
    announcedAt: announcedAt.toISOString(),
    effectiveAt: effectiveAt?.toISOString() ?? null,
    summary: `Limits reset for everyone (${id}).`,
  });

export const MINUTE_MS = 60_000;

/** The minute `at` started in: a cron's minute. */
export const minuteOf = (at: Date) => new Date(Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS);

/**
 * The cron's handler at the cron minute `at`, as wrangler dev runs it (workerd's own scheduled route; its `time`
 * becomes the handler's `controller.scheduledTime`, as a real cron's minute does).
 */
export async function runCron(server: RunningServer, at: Date): Promise<void> {
  const response = await fetch(`${server.baseUrl}/cdn-cgi/local/scheduled?cron=*+*+*+*+*&time=${at.getTime()}`);
  expect(response.status).toBe(200);
}

/**
 * The cron at a clock past the lease of the sends now in flight (an hour ahead, to a reset's `effectiveAt`), once every
 * send a receiver took is recorded: a receiver holds a message before the worker records its outcome, and a cron that
 * meets a send in flight past its lease queues it again, as it must where its sender died, so the receiver would get
 * it twice (docs/testing.md, "A cron ahead of the sends").
 */
export async function runCronAhead(copy: ServedCopy, server: RunningServer, at: Date): Promise<void> {
  await deliveriesInFlightRecorded(copy);
  await runCron(server, at);
}

/**
 * Waits (it asserts no time) until `check` holds, polling; rejects after `timeoutMs` saying what never came (`what`
 * may be a function, read at the deadline, to say how far it got).
 */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  what: string | (() => string),
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + scaled(timeoutMs);
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`never: ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Waits until the hub has stored the WebSub subscription of `callback` (the full URL) in the copy's D1. A subscriber's
 * receiver counts a subscription active once it has answered the hub's verification of intent, and the hub stores it
 * only after that answer: a test that goes on at the receiver's word (to a cron run, or a restart that drops the queue
 * the verification is in) can lose the subscription on a loaded machine.
 */
export const webSubSubscriptionStored = (copy: ServedCopy, callback: string): Promise<void> =>
  eventually(async () => {
    const sql = `SELECT COUNT(*) AS stored FROM subscribers WHERE channel = 'websub' AND address = '${callback.replaceAll("'", "''")}'`;
    const [row] = await queryLocalD1(copy.state, sql);
    return row?.['stored'] === 1;
  }, `the hub's stored subscription of ${callback}`);

/** Polls the copy's D1 until every count the one row of `counts` holds is 0; says what was left if it never is. */
function untilNoneLeft(copy: ServedCopy, counts: string, what: string, timeoutMs?: number): Promise<void> {
  let left = '';
  return eventually(
    async () => {
      const [row] = await queryLocalD1(copy.state, counts);
      left = JSON.stringify(row);
      return row !== undefined && Object.values(row).every((count) => count === 0);
    },
    () => `${what} (left: ${left})`,
    timeoutMs,
  );
}

/**
 * Waits until the copy's delivery wing can send nothing more by itself: every fan-out it claimed is done and no
 * delivery is pending (neither in flight nor a retry the queue carries). Only a cron run or a new build sends after
 * that, so a receiver's count read then is final: the "nothing more arrives" checks wait for this, not for a quiet
 * second or two, which on a loaded machine proves nothing (docs/testing.md, "No waiting on the wall clock").
 */
export const deliveriesSettled = (copy: ServedCopy): Promise<void> =>
  untilNoneLeft(
    copy,
    `SELECT (SELECT COUNT(*) FROM notifications WHERE fanout_done = 0) AS fanouts,
            (SELECT COUNT(*) FROM deliveries WHERE state = 'pending') AS pending`,
    'every fan-out done and no delivery pending',
  );

/**
 * Waits until no delivery is held by a sender or a queued message: every outcome so far recorded. A retry due later
 * (pending, held by nobody) may still wait, as it does while the receivers are down (tests/delivery-faults.test.ts).
 */
export const deliveriesInFlightRecorded = (copy: ServedCopy, timeoutMs?: number): Promise<void> =>
  untilNoneLeft(
    copy,
    "SELECT COUNT(*) AS inFlight FROM deliveries WHERE state = 'pending' AND lease IS NOT NULL",
    'every delivery in flight recorded',
    timeoutMs,
  );
