import { buildDraftEvent, serializeEventFile } from '../content/new-event.ts';
import { timeProblems } from '../content/time-rules.ts';
import type { Event } from '../schemas.ts';
import type { SourceCheck } from '../sources.ts';
import type { EventKind } from '../vocabulary.ts';
import { excerpt, type FeedItem, FeedParseError, feedItems } from './feed-items.ts';
import { backoffMs, type PollState, pollVerdict, validatorHeaders } from './poll-state.ts';
import { type Sources, type WatchedSource, watchedSources } from './sources.ts';

/**
 * One watch run over the watched sources: which source is asked, what its answer means, which posts become
 * draft proposals, and what is remembered of each source afterwards. The one implementation behind both
 * adapters, `npm run watch` (src/node/watch/run-watch.ts) and the worker's minute cron (src/server/watch/cron.ts):
 * they only fetch (the fetcher is handed in) and store (files, or D1).
 */

/** A feed's answer to one request, as the fetcher reads it (src/server/watch/fetch-feed.ts). */
export type FeedAnswer =
  | { kind: 'fetched'; text: string; etag: string | null; lastModified: string | null }
  | { kind: 'unchanged'; etag: string | null; lastModified: string | null }
  | { kind: 'failed'; reason: string };

export type FeedFetcher = (feed: string, headers: Readonly<Record<string, string>>) => Promise<FeedAnswer>;

/** A new relevant post, written as the draft event file it would be. */
export interface DraftProposal {
  itemKey: string;
  event: Event;
  /** `<provider>/<id>.json`, relative to the events folder. */
  path: string;
  /** The file as it would be committed (`serializeEventFile`). */
  file: string;
}

export interface SourcePoll {
  source: WatchedSource;
  /** Whether the source was asked in this run; when it was not, `state` and `check` are as before. */
  asked: boolean;
  /** Why this run's request failed; null when it was answered or not made. */
  failure: string | null;
  /** The source's line of the source report: this run's, or the last one when it was not asked. */
  check: SourceCheck | null;
  /** What to remember of the source; the proposals' keys join `seen` once stored (`settledState`). */
  state: PollState;
  proposals: DraftProposal[];
  /** Posts skipped for a reason someone can fix (no date, a value the event rules refuse): tried again later. */
  skipped: string[];
}

export interface WatchRunInput {
  sources: Sources;
  classify: (text: string) => EventKind | null;
  /** What was remembered of a source (FIRST_POLL when nothing). */
  stateOf: (source: WatchedSource) => PollState;
  fetchFeed: FeedFetcher;
  now: Date;
  /**
   * How much changed feed text one run reads (parses), in characters: the longest unread feeds first, always at
   * least one; the others are left as they were, to be asked again the next minute. The worker's cron sets it so
   * that a run fits its CPU time (docs/watch.md); `npm run watch` reads everything.
   */
  readBudget?: number;
}

export interface WatchRun {
  polls: SourcePoll[];
  /** Sources under `.example` (the samples that ship with the project): never fetched. */
  samples: number;
}

/** Asks every source that is due, at once, and reads the answers (the changed feeds up to `readBudget`). */
export async function pollSources(input: WatchRunInput): Promise<WatchRun> {
  const { watched, samples } = watchedSources(input.sources);
  const asked = await Promise.all(
    watched.map(async (source) => {
      const before = input.stateOf(source);
      const due = pollVerdict(before, input.now).due;
      return { source, before, answer: due ? await input.fetchFeed(source.feed, validatorHeaders(before)) : null };
    }),
  );
  // The changed feeds to read now: those read longest ago (never read first), up to the run's share.
  const changed = asked
    .flatMap(({ source, before, answer }) => (answer?.kind === 'fetched' ? [{ source, before, answer }] : []))
    .sort((a, b) => (a.before.lastCheck?.checkedAt ?? '').localeCompare(b.before.lastCheck?.checkedAt ?? ''));
  const deferred = new Set<WatchedSource>();
  let read = 0;
  for (const { source, answer } of changed) {
    if (read > 0 && read + answer.text.length > (input.readBudget ?? Number.POSITIVE_INFINITY)) deferred.add(source);
    else read += answer.text.length;
  }
  const polls = asked.map(({ source, before, answer }) =>
    answer === null || deferred.has(source)
      ? { source, asked: false, failure: null, check: before.lastCheck, state: before, proposals: [], skipped: [] }
      : readAnswer(source, before, answer, input),
  );
  return { polls, samples };
}

const sourceCheck = (
  source: WatchedSource,
  now: Date,
  error: string | null,
  itemsSeen: number,
  failingSince: string | null = null,
): SourceCheck => ({
  provider: source.provider,
  name: source.account,
  url: source.feed,
  checkedAt: now.toISOString(),
  ok: error === null,
  error,
  itemsSeen,
  ...(error === null ? {} : { failingSince: failingSince ?? now.toISOString() }),
});

/** What one answer means for the report and for what is remembered of its source. */
function readAnswer(source: WatchedSource, before: PollState, answer: FeedAnswer, input: WatchRunInput): SourcePoll {
  const { now } = input;
  const unasked = { source, failure: null, proposals: [], skipped: [] };
  const asked = { ...before, polledAt: now.toISOString() };
  if (answer.kind === 'failed') return failedPoll(source, asked, answer.reason, now);
  if (answer.kind === 'unchanged') {
    const check = sourceCheck(source, now, null, before.items);
    const state = {
      ...asked,
      etag: answer.etag ?? before.etag,
      lastModified: answer.lastModified ?? before.lastModified,
      failures: 0,
      retryAt: null,
      lastCheck: check,
    };
    return { ...unasked, asked: true, check, state };
  }
  let items: FeedItem[];
  try {
    items = feedItems(answer.text);
  } catch (error) {
    // The validators of a document that cannot be read would make the next answer a 304 that looks fine.
    // A FeedParseError's words never quote the document (feed-items.ts); anything else is not shown at all.
    const reason = `is not a readable feed (${error instanceof FeedParseError ? error.message : 'it could not be read'})`;
    return failedPoll(source, { ...asked, etag: null, lastModified: null }, reason, now);
  }
  const read = readItems(source, items, new Set(before.seen), input.classify, now);
  const check = sourceCheck(source, now, null, items.length);
  const state: PollState = {
    etag: answer.etag,
    lastModified: answer.lastModified,
    polledAt: asked.polledAt,
    failures: 0,
    retryAt: null,
    lastCheck: check,
    items: items.length,
    seen: read.seen,
  };
  return { source, asked: true, failure: null, check, state, proposals: read.proposals, skipped: read.skipped };
}

function failedPoll(source: WatchedSource, asked: PollState, reason: string, now: Date): SourcePoll {
  const failures = asked.failures + 1;
  // A failure after failures continues their run: it began at the first of them (sources.ts, `failing`).
  const previous = asked.lastCheck;
  const since = previous !== null && !previous.ok ? (previous.failingSince ?? previous.checkedAt) : null;
  const check = sourceCheck(source, now, reason, 0, since);
  const retryAt = new Date(now.getTime() + backoffMs(failures)).toISOString();
  const state = { ...asked, failures, retryAt, lastCheck: check };
  return { source, asked: true, failure: reason, check, state, proposals: [], skipped: [] };
}

/**
 * The posts of one readable answer: those seen before are passed over; a post no kind matches is settled; a
 * relevant one becomes a proposal when it makes a valid event file on its own (no date, no draft: the time of
 * the run is not the time of the post). `seen` keeps the settled keys of the posts the feed still holds.
 */
function readItems(
  source: WatchedSource,
  items: readonly FeedItem[],
  seenBefore: ReadonlySet<string>,
  classify: (text: string) => EventKind | null,
  now: Date,
) {
  const seen: string[] = [];
  const proposals: DraftProposal[] = [];
  const skipped: string[] = [];
  const { provider } = source;
  for (const item of items) {
    if (seenBefore.has(item.key)) {
      seen.push(item.key);
      continue;
    }
    const kind = classify(item.text);
    if (kind === null) {
      seen.push(item.key);
      continue;
    }
    if (item.publishedAt === null) {
      skipped.push(
        `${provider} ${item.key}: the feed gives no publication date; add it by hand (npm run event:add) or fix the feed`,
      );
      continue;
    }
    const draft = buildDraftEvent({
      provider,
      kind,
      sourceUrl: item.link ?? '',
      sourceAccount: source.account,
      summary: excerpt(item.ownText),
      announcedAt: item.publishedAt,
    });
    if (!draft.ok) {
      skipped.push(
        `${provider} ${item.key}: ${draft.problems.map((problem) => `${problem.field} ${problem.message}`).join('; ')}`,
      );
      continue;
    }
    const path = `${provider}/${draft.event.id}.json`;
    const file = serializeEventFile(draft.event);
    // The schema held (buildDraftEvent) and the path is the event's own: the time rules are what is left of the
    // rules a file has on its own (a post dated after the run). The tree's rules are the adapter's to check.
    const problems = timeProblems(path, draft.event, now);
    if (problems.length > 0) {
      skipped.push(
        `${provider} ${item.key}: ${problems.map((problem) => `${problem.field ?? 'the file'} ${problem.message}`).join('; ')}`,
      );
      continue;
    }
    proposals.push({ itemKey: item.key, event: draft.event, path, file });
  }
  return { seen, proposals, skipped };
}

/**
 * What to remember of a source once its proposals are stored: the keys of those that became drafts or were
 * already recorded (`final`) join `seen`. While any post of the answer is unsettled, its validators are
 * dropped, so that the next poll reads the whole feed again instead of a 304 that would hide the post.
 */
export function settledState(poll: SourcePoll, final: ReadonlySet<string>): PollState {
  const settled = poll.proposals.filter((proposal) => final.has(proposal.itemKey)).map((p) => p.itemKey);
  const seen = [...new Set([...poll.state.seen, ...settled])];
  const unsettled = poll.skipped.length > 0 || settled.length < poll.proposals.length;
  return unsettled ? { ...poll.state, seen, etag: null, lastModified: null } : { ...poll.state, seen };
}
