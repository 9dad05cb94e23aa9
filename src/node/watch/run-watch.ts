import { readFile, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { buildDraftEvent } from '../../core/content/new-event.ts';
import { formatContentProblem } from '../../core/content/validate-event-files.ts';
import { ClassificationRulesSchema, createClassifier } from '../../core/watch/classify.ts';
import { excerpt, feedItems, type FeedItem } from '../../core/watch/feed-items.ts';
import { describeConfigIssues, isSampleSource, SourcesSchema } from '../../core/watch/sources.ts';
import { PROVIDERS } from '../../core/vocabulary.ts';
import { addDraft, ALREADY_EXISTS } from '../event-store.ts';
import { fetchFeed, type FetchLimits } from './fetch-feed.ts';

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
}

/** A config file that cannot be used: the message names the file (and the key), never a stack trace. */
export class WatchConfigError extends Error {
  override name = 'WatchConfigError';
}

async function readConfig<T>(file: string, schema: z.ZodType<T>, knownTopLevelKeys?: readonly string[]): Promise<T> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new WatchConfigError(
      `${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new WatchConfigError(`${file}: is not valid JSON (${(error as Error).message})`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    throw new WatchConfigError(describeConfigIssues(file, parsed.error, knownTopLevelKeys).join('\n'));
  return parsed.data;
}

export async function runWatch(options: WatchOptions): Promise<WatchReport> {
  const now = options.now ?? new Date();
  const sources = await readConfig(options.sourcesFile, SourcesSchema, PROVIDERS);
  const classify = createClassifier(await readConfig(options.rulesFile, ClassificationRulesSchema));
  const state = await readConfig(options.stateFile, StateSchema);
  const report: WatchReport = { drafts: [], failures: [], skipped: [], watchedSources: 0, sampleSources: 0 };

  for (const provider of PROVIDERS) {
    const seen = new Set(state.seen[provider] ?? []);
    for (const source of sources[provider]) {
      if (isSampleSource(source)) {
        report.sampleSources += 1;
        continue;
      }
      report.watchedSources += 1;
      const fetched = await fetchFeed(source.feed, options);
      if (!fetched.ok) {
        report.failures.push(`${provider} ${source.feed} ${fetched.reason}`);
        continue;
      }
      let items: FeedItem[];
      try {
        items = feedItems(fetched.text);
      } catch (error) {
        report.failures.push(`${provider} ${source.feed} is not a readable feed (${(error as Error).message})`);
        continue;
      }
      for (const item of items) {
        if (seen.has(item.key)) continue;
        const kind = classify(item.text);
        if (kind === null) {
          seen.add(item.key);
          continue;
        }
        // No date, no draft: the time of this run is not the time of the post.
        if (item.publishedAt === null) {
          report.skipped.push(
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
          report.skipped.push(
            `${provider} ${item.key}: ${draft.problems.map((problem) => `${problem.field} ${problem.message}`).join('; ')}`,
          );
          continue;
        }
        const stored = await addDraft(options.eventsRoot, draft.event, now);
        if (stored.ok) {
          report.drafts.push(stored.file);
          seen.add(item.key);
        } else if (stored.problems.every((problem) => problem.message === ALREADY_EXISTS)) {
          seen.add(item.key);
        } else {
          report.skipped.push(
            stored.problems.map((problem) => formatContentProblem(problem, options.eventsRoot)).join('; '),
          );
        }
      }
    }
    state.seen[provider] = [...seen].sort();
  }
  // Nothing watched, nothing learnt: the state file is left as it was.
  if (report.watchedSources > 0) await writeFile(options.stateFile, `${JSON.stringify(state, null, 2)}\n`);
  return report;
}
