import { recordIn, recordShardOf } from '../../core/event-records.ts';
import { OUTBOUND_PROBLEM_MESSAGES, type OutboundRules, outboundAddress } from '../../core/outbound/address.ts';
import { buildSourceReport } from '../../core/sources.ts';
import { createClassifier } from '../../core/watch/classify.ts';
import { FIRST_POLL } from '../../core/watch/poll-state.ts';
import { type DraftProposal, type FeedAnswer, pollSources, settledState } from '../../core/watch/run.ts';
import { watchedSources } from '../../core/watch/sources.ts';
import { draftKey, hasWatchConfigFrame, WATCH_CONFIG_PATH, type WatchConfig } from '../../core/watch/watch-config.ts';
import { BASE_URL } from '../base-url.ts';
import { DataSourceUnavailable, loadRecordShard, readDataFileNow } from '../data-source.ts';
import { confirmLinkConfigured } from '../journal/git-commit.ts';
import { allowsLoopbackReceivers, type LoopbackSwitch } from '../loopback.ts';
import { DEFAULT_FETCH_LIMITS, fetchFeed } from './fetch-feed.ts';
import { reviewChannel, sendWaitingReviews } from './review.ts';
import { FEED_MAX_BYTES, PROPOSALS_PER_RUN, READ_BUDGET_PER_RUN } from './run-shares.ts';
import { readPollStates, recordRun, storedDraftKeys } from './store.ts';

/**
 * The watcher in the worker's minute cron (docs/watch.md): the same run as `npm run watch` (src/core/watch/run.ts)
 * over the sources the build carries, its state and drafts in D1, its report where GET /api/sources reads it, and
 * each new draft sent to the review channel at once. Without D1 it is off; with only the sample sources there is
 * nothing to watch and the last report is left as it is.
 */

/**
 * The loopback test switch (`LoopbackSwitch`, src/server/loopback.ts: `ALLOW_LOOPBACK_RECEIVERS`, or the older
 * `PUSH_ALLOW_LOOPBACK_RECEIVER`) lets feeds and review webhooks on this machine through, for the tests.
 */
export interface WatchBindings extends LoopbackSwitch {
  ASSETS: Pick<Fetcher, 'fetch'>;
  DB?: D1Database;
  /** The review channel: a Discord or Slack webhook (a secret). */
  REVIEW_WEBHOOK_URL?: string;
  /**
   * The review links' signing key (a secret): with it and `GITHUB_TOKEN` (which commits what is confirmed), each
   * review message carries the review page's link (decisions.md, "Confirmed within a minute").
   */
  REVIEW_SIGNING_KEY?: string;
  GITHUB_TOKEN?: string;
}

/** What the deployment lacks, said when it changes or a draft waits for it: a line every minute says nothing new. */
let lastMissing = '';

export async function runScheduledWatch(
  env: WatchBindings,
  now: Date,
  /** Told when the run fails (the scheduled run's record: src/server/health/scheduled.ts). */
  onFailure: () => void = () => {},
): Promise<void> {
  const db = env.DB;
  if (db === undefined) return;
  try {
    const config = await readWatchConfig(env.ASSETS);
    const { watched } = watchedSources(config.sources);
    if (watched.length === 0) return;
    const rules: OutboundRules = { allowLoopbackReceiver: allowsLoopbackReceivers(env) };
    const states = await readPollStates(db);
    const run = await pollSources({
      sources: config.sources,
      classify: createClassifier(config.rules),
      stateOf: (source) => states.get(source.feed) ?? FIRST_POLL,
      fetchFeed: (feed, headers) => fetchAllowedFeed(feed, headers, rules),
      now,
      readBudget: READ_BUDGET_PER_RUN,
    });
    // The proposals this run settles: stored now, or found already an event or a draft. The others stay unsettled
    // (their feed is read whole again next minute).
    const proposals = new Set(run.polls.flatMap((poll) => poll.proposals).slice(0, PROPOSALS_PER_RUN));
    const known = await knownProposals(env.ASSETS, db, config, [...proposals]);
    const inserted = await recordRun(db, {
      states: run.polls
        .filter((poll) => poll.asked)
        .map((poll) => ({
          feed: poll.source.feed,
          state: settledState(
            poll,
            new Set(poll.proposals.filter((proposal) => proposals.has(proposal)).map((proposal) => proposal.itemKey)),
          ),
        })),
      feeds: watched.map((source) => source.feed),
      drafts: [...proposals].filter((proposal) => !known.has(proposal)),
      report: buildSourceReport(
        run.polls.flatMap((poll) => (poll.check === null ? [] : [poll.check])),
        now,
      ),
      now,
    });
    const failed = run.polls.filter((poll) => poll.failure !== null).length;
    if (inserted.length > 0 || failed > 0)
      console.log('watch', JSON.stringify({ minute: now.toISOString(), failed, drafts: inserted }));

    const review = reviewChannel(env.REVIEW_WEBHOOK_URL, config.repositoryUrl, rules);
    const missing = review.missing.join('; ');
    if (review.channel === null && (inserted.length > 0 || missing !== lastMissing))
      console.warn(
        `watch: the sources are polled and reported, but no reviewer is told of new drafts (${inserted.length} new, kept in D1): ${missing}`,
      );
    lastMissing = missing;
    if (review.channel === null) return;
    // A draft stored this run was just checked against the build; one that waited may have been recorded since.
    const justStored = new Set(inserted);
    const signingKey = env.REVIEW_SIGNING_KEY;
    const channel =
      signingKey === undefined || !confirmLinkConfigured(env)
        ? review.channel
        : { ...review.channel, confirmLinks: { signingKey, baseUrl: BASE_URL } };
    const reviews = await sendWaitingReviews(db, channel, now, async (drafts) => {
      const earlier = drafts.filter((draft) => !justStored.has(draft.id));
      if (earlier.length === 0) return new Set();
      try {
        return await recordedInBuild(env.ASSETS, config, earlier);
      } catch {
        // The build's records unreadable now: the messages go anyway (a reviewer told twice loses nothing).
        return new Set();
      }
    });
    // One line per message not sent, for an operator (never the webhook's address: the error is a status or words).
    for (const failure of reviews.failed)
      console.warn(
        `watch: the review message of draft ${failure.id} was not sent (try ${failure.attempts}: ${failure.error}); tried again at ${failure.nextAt}`,
      );
    if (reviews.recorded.length > 0)
      console.log(
        `watch: ${reviews.recorded.join(', ')} already in the build (published or a draft of the tree): no review message, left out of watch_drafts`,
      );
  } catch (error) {
    console.error(`watch run of ${now.toISOString()} failed; the next minute's run tries again:`, error);
    onFailure();
  }
}

/**
 * The build's watch configuration (`/data/watch.json`): checked when the build wrote it, so trusted after its stamp
 * and a look at its frame, as the other data files are (a zod parse every minute cost a tenth of a run).
 */
async function readWatchConfig(assets: Pick<Fetcher, 'fetch'>): Promise<WatchConfig> {
  const config = await readDataFileNow<unknown>(assets, BASE_URL, WATCH_CONFIG_PATH);
  if (!hasWatchConfigFrame(config))
    throw new DataSourceUnavailable(`${WATCH_CONFIG_PATH} carries this build's stamp but not its shape`);
  return config;
}

/**
 * The worker sends only to addresses the outbound policy allows: a feed it refuses is a failing source, and so is
 * a feed that redirects to an address it refuses (each redirect is judged before it is followed: fetch-feed.ts).
 */
function fetchAllowedFeed(
  feed: string,
  headers: Readonly<Record<string, string>>,
  rules: OutboundRules,
): Promise<FeedAnswer> {
  const address = outboundAddress(feed, rules);
  if (!address.ok)
    return Promise.resolve({
      kind: 'failed',
      reason: `is not read by the worker: the feed ${OUTBOUND_PROBLEM_MESSAGES[address.problem]}`,
    });
  return fetchFeed(address.url, headers, { ...DEFAULT_FETCH_LIMITS, maxBytes: FEED_MAX_BYTES }, (target) => {
    const hop = outboundAddress(target, rules);
    return hop.ok ? hop : { ok: false, reason: OUTBOUND_PROBLEM_MESSAGES[hop.problem] };
  });
}

/**
 * The proposals whose post is already recorded: a draft in D1, or in the build (recordedInBuild).
 */
async function knownProposals(
  assets: Pick<Fetcher, 'fetch'>,
  db: D1Database,
  config: WatchConfig,
  proposals: readonly DraftProposal[],
): Promise<Set<DraftProposal>> {
  if (proposals.length === 0) return new Set();
  const stored = await storedDraftKeys(db, proposals);
  const inBuild = await recordedInBuild(
    assets,
    config,
    proposals.map((proposal) => proposal.event),
  );
  return new Set(
    proposals.filter(
      ({ event }) => stored.ids.has(event.id) || stored.sourceUrls.has(event.sourceUrl) || inBuild.has(event.id),
    ),
  );
}

/**
 * The ids among `drafts` whose post the build already has: an event of the build with the post's id (its record
 * shard) or URL (among that shard's records), or a draft of the built tree (whose id's or URL's SHA-256 the build's
 * watch configuration lists). An event's id is the post's id from its URL, so the post's event, if there is one, is
 * the record of the id the URL gives.
 */
async function recordedInBuild(
  assets: Pick<Fetcher, 'fetch'>,
  config: WatchConfig,
  drafts: readonly { id: string; sourceUrl: string }[],
): Promise<Set<string>> {
  const recorded = new Set<string>();
  if (drafts.length === 0) return recorded;
  const treeKeys = new Set(config.draftKeys);
  const inTree = async ({ id, sourceUrl }: { id: string; sourceUrl: string }) =>
    treeKeys.size > 0 && (treeKeys.has(await draftKey(id)) || treeKeys.has(await draftKey(sourceUrl)));
  const shards = new Map(
    await Promise.all(
      [...new Set(drafts.map((draft) => recordShardOf(draft.id)))].map(
        async (shard) => [shard, await loadRecordShard(assets, BASE_URL, shard)] as const,
      ),
    ),
  );
  for (const { id, sourceUrl } of drafts) {
    const shard = shards.get(recordShardOf(id))!;
    if (
      (await inTree({ id, sourceUrl })) ||
      recordIn(shard, id) !== undefined ||
      Object.values(shard.records).some((record) => record.event.sourceUrl === sourceUrl)
    )
      recorded.add(id);
  }
  return recorded;
}
