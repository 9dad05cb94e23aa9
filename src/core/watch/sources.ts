import { z } from 'zod';
import { PROVIDERS, type Provider } from '../vocabulary.ts';

/**
 * `content/watch/sources.json`: the feeds the watcher reads, per provider. Strict, so that a misspelt
 * provider key (`provider_d`) or field (`fed`) is an error that names it instead of a source silently
 * never read. Feeds are https; plain http only to this machine (a feed bridge running locally, a test).
 */

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export const isAllowedFeedUrl = (feed: string): boolean => {
  const url = URL.parse(feed);
  if (url === null) return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
};

const SourceSchema = z.strictObject({
  account: z.string().min(1, 'must name the account that posts'),
  feed: z.string().refine(isAllowedFeedUrl, 'must be an https URL (plain http only to localhost)'),
});
export type Source = z.infer<typeof SourceSchema>;

export const SourcesSchema = z.strictObject({
  $comment: z.string().optional(),
  ...(Object.fromEntries(PROVIDERS.map((provider) => [provider, z.array(SourceSchema).default([])])) as Record<
    Provider,
    z.ZodDefault<z.ZodArray<typeof SourceSchema>>
  >),
});
export type Sources = z.infer<typeof SourcesSchema>;

/** A feed on a host under `.example` (reserved, RFC 2606) is a sample that ships with the project: never fetched. */
export const isSampleSource = (source: Source): boolean => {
  const hostname = URL.parse(source.feed)?.hostname ?? '';
  return hostname === 'example' || hostname.endsWith('.example');
};

/** One line per problem of a config file, each naming the file and where in it (`provider_a[0].feed`). */
export function describeConfigIssues(file: string, error: z.ZodError, knownTopLevelKeys?: readonly string[]): string[] {
  return error.issues.map((issue) => {
    const where = issue.path.reduce<string>(
      (path, key) => (typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${String(key)}` : String(key)),
      '',
    );
    if (issue.code === 'unrecognized_keys') {
      const known = where === '' && knownTopLevelKeys ? ` (the keys are ${knownTopLevelKeys.join(', ')})` : '';
      return `${file}: ${issue.keys.map((key) => `unknown key "${where ? `${where}.` : ''}${key}"`).join(', ')}${known}`;
    }
    return `${file}: ${where || 'the whole file'} ${issue.message}`;
  });
}

/** A configured source the watcher asks, with its provider. */
export interface WatchedSource {
  provider: Provider;
  account: string;
  feed: string;
}

/** The configured sources in the providers' order, the samples set apart. */
export function watchedSources(sources: Sources): { watched: WatchedSource[]; samples: number } {
  const watched: WatchedSource[] = [];
  let samples = 0;
  for (const provider of PROVIDERS) {
    for (const { account, feed } of sources[provider]) {
      if (isSampleSource({ account, feed })) samples += 1;
      else watched.push({ provider, account, feed });
    }
  }
  return { watched, samples };
}
