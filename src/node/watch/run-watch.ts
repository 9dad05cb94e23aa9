import { writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { formatContentProblem } from '../../core/content/validate-event-files.ts';
import { ClassificationRulesSchema, createClassifier } from '../../core/watch/classify.ts';
import { FIRST_POLL } from '../../core/watch/poll-state.ts';
import { pollSources, settledState } from '../../core/watch/run.ts';
import type { SourceCheck } from '../../core/sources.ts';
import { SourcesSchema } from '../../core/watch/sources.ts';
import { PROVIDERS } from '../../core/vocabulary.ts';
import { fetchFeed, type FetchLimits } from '../../server/watch/fetch-feed.ts';
import { addDraft, ALREADY_EXISTS } from '../event-store.ts';
import { readConfig } from './config-file.ts';

/**
 * `npm run watch`: reads every configured source, proposes each new relevant post once as a draft event,
 * and reports every source that failed without stopping the others. It never publishes.
 *
 * A post is remembered as seen (content/watch/state.json) only once its outcome is final: it became a
 * draft, it is not relevant, or it is already recorded. A post skipped for a reason someone can fix (no
 * date in the feed, a link the event rules refuse, a conflict in the event tree) is reported and tried
 * again on the next run, so fixing the cause brings it in.
 */

const StateSchema = z.strictObject({ seen: z.record(z.string(), z.array(z.string())).default({}) });

export interface WatchOptions extends FetchLimits {
  eventsRoot: string;
  sourcesFile: string;
  rulesFile: string;
  stateFile: string;
  now?: Date;
}

export interface WatchReport {
  drafts: string[];
  failures: string[];
  skipped: string[];
  /** Sources read (the sample sources under `.example` are not). Zero means there was nothing to watch. */
  watchedSources: number;
  sampleSources: number;
  /** Each source read, as the source report stores it (src/node/source-report.ts). */
  sources: SourceCheck[];
}

export async function runWatch(options: WatchOptions): Promise<WatchReport> {
  const now = options.now ?? new Date();
  const sources = await readConfig(options.sourcesFile, SourcesSchema, PROVIDERS);
  const classify = createClassifier(await readConfig(options.rulesFile, ClassificationRulesSchema));
  const state = await readConfig(options.stateFile, StateSchema);
  // Each command run stands alone: no validators, no backoff; what it remembers is the posts it has settled.
  const { polls, samples } = await pollSources({
    sources,
    classify,
    stateOf: (source) => ({ ...FIRST_POLL, seen: state.seen[source.provider] ?? [] }),
    fetchFeed: (feed, headers) => fetchFeed(feed, headers, options),
    now,
  });
  const report: WatchReport = {
    drafts: [],
    failures: [],
    skipped: [],
    watchedSources: polls.length,
    sampleSources: samples,
    sources: [],
  };
  const seen = new Map(PROVIDERS.map((provider) => [provider, new Set(state.seen[provider] ?? [])]));
  for (const poll of polls) {
    const { provider, feed } = poll.source;
    if (poll.check !== null) report.sources.push(poll.check);
    if (poll.failure !== null) report.failures.push(`${provider} ${feed} ${poll.failure}`);
    report.skipped.push(...poll.skipped);
    const final = new Set<string>();
    for (const proposal of poll.proposals) {
      const stored = await addDraft(options.eventsRoot, proposal.event, now);
      if (stored.ok) {
        report.drafts.push(stored.file);
        final.add(proposal.itemKey);
      } else if (stored.problems.every((problem) => problem.message === ALREADY_EXISTS)) {
        final.add(proposal.itemKey);
      } else {
        report.skipped.push(
          stored.problems.map((problem) => formatContentProblem(problem, options.eventsRoot)).join('; '),
        );
      }
    }
    for (const key of settledState(poll, final).seen) seen.get(provider)!.add(key);
  }
  // Nothing watched, nothing learnt: the state file is left as it was.
  if (report.watchedSources > 0) {
    for (const [provider, keys] of seen) state.seen[provider] = [...keys].sort();
    await writeFile(options.stateFile, `${JSON.stringify(state, null, 2)}\n`);
  }
  return report;
}
