import { readFile, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { buildDraftEvent } from '../../core/content/new-event.ts';
import { formatContentProblem } from '../../core/content/validate-event-files.ts';
import { ClassificationRulesSchema, createClassifier } from '../../core/watch/classify.ts';
import { excerpt, feedItems, type FeedItem } from '../../core/watch/feed-items.ts';
import type { SourceCheck } from '../../core/sources.ts';
import { PROVIDERS, type Provider } from '../../core/vocabulary.ts';
import { addDraft } from '../event-store.ts';
import { fetchFeed, type FetchLimits } from './fetch-feed.ts';

/**
 * `npm run watch`: reads every configured source, proposes each new relevant post once as a draft event,
 * and reports every source that failed without stopping the others. It never publishes.
 */

const SourceSchema = z.object({ account: z.string().min(1), feed: z.url() });
export const SourcesSchema = z.object(
  Object.fromEntries(PROVIDERS.map((provider) => [provider, z.array(SourceSchema).default([])])) as Record<
    Provider,
    z.ZodDefault<z.ZodArray<typeof SourceSchema>>
  >,
);
const StateSchema = z.object({ seen: z.record(z.string(), z.array(z.string())).default({}) });

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
  /** Each source read, as the source report stores it (src/node/source-report.ts). */
  sources: SourceCheck[];
}

const readJson = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as unknown;

export async function runWatch(options: WatchOptions): Promise<WatchReport> {
  const now = options.now ?? new Date();
  const sources = SourcesSchema.parse(await readJson(options.sourcesFile));
  const classify = createClassifier(ClassificationRulesSchema.parse(await readJson(options.rulesFile)));
  const state = StateSchema.parse(await readJson(options.stateFile));
  const report: WatchReport = { drafts: [], failures: [], skipped: [], sources: [] };

  for (const provider of PROVIDERS) {
    const seen = new Set(state.seen[provider] ?? []);
    for (const source of sources[provider]) {
      const fetched = await fetchFeed(source.feed, options);
      if (!fetched.ok) {
        report.failures.push(`${provider} ${source.feed} ${fetched.reason}`);
        report.sources.push(sourceCheck(provider, source, options, fetched.reason, 0));
        continue;
      }
      let items: FeedItem[];
      try {
        items = feedItems(fetched.text);
      } catch (error) {
        report.failures.push(`${provider} ${source.feed} is not a readable feed (${(error as Error).message})`);
        report.sources.push(
          sourceCheck(provider, source, options, `is not a readable feed (${(error as Error).message})`, 0),
        );
        continue;
      }
      report.sources.push(sourceCheck(provider, source, options, null, items.length));
      for (const item of items) {
        if (seen.has(item.key)) continue;
        seen.add(item.key);
        const kind = classify(item.text);
        if (kind === null) continue;
        const draft = buildDraftEvent({
          provider,
          kind,
          sourceUrl: item.link ?? '',
          sourceAccount: source.account,
          summary: excerpt(item.text),
          announcedAt: item.publishedAt ?? now.toISOString(),
        });
        if (!draft.ok) {
          report.skipped.push(
            `${provider} ${item.key}: ${draft.problems.map((problem) => `${problem.field} ${problem.message}`).join('; ')}`,
          );
          continue;
        }
        const stored = await addDraft(options.eventsRoot, draft.event, now);
        if (stored.ok) report.drafts.push(stored.file);
        else
          report.skipped.push(
            stored.problems.map((problem) => formatContentProblem(problem, options.eventsRoot)).join('; '),
          );
      }
    }
    state.seen[provider] = [...seen].sort();
  }
  await writeFile(options.stateFile, `${JSON.stringify(state, null, 2)}\n`);
  return report;
}

/** One source's line of the source report: read now (or at the run's given time), failed with `error` or not. */
function sourceCheck(
  provider: Provider,
  source: { account: string; feed: string },
  options: WatchOptions,
  error: string | null,
  itemsSeen: number,
): SourceCheck {
  const checkedAt = (options.now ?? new Date()).toISOString();
  return { provider, name: source.account, url: source.feed, checkedAt, ok: error === null, error, itemsSeen };
}
