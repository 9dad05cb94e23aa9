import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hasWatchConfigFrame, RepositoryUrlSchema, WatchConfigSchema } from './watch-config.ts';

const config = WatchConfigSchema.parse({
  sources: JSON.parse(readFileSync('content/watch/sources.json', 'utf8')),
  rules: JSON.parse(readFileSync('content/watch/classification.json', 'utf8')),
  repositoryUrl: 'https://github.com/example-owner/departures-board/',
  drafts: [],
});

describe('the watch configuration the build carries', () => {
  it('keeps the repository address without its trailing slash, and refuses one that is no web address', () => {
    expect(config.repositoryUrl).toBe('https://github.com/example-owner/departures-board');
    expect(RepositoryUrlSchema.safeParse('git@github.com:owner/board.git').success).toBe(false);
  });

  it('is recognised by its frame, and a file of another shape is not', () => {
    expect(hasWatchConfigFrame(config)).toBe(true);
    expect(hasWatchConfigFrame({ ...config, repositoryUrl: null })).toBe(true);
    const { provider_b: _, ...withoutB } = config.sources;
    for (const broken of [
      null,
      [],
      { ...config, sources: withoutB },
      { ...config, rules: { keywords: {} } },
      { ...config, drafts: undefined },
      { ...config, repositoryUrl: 42 },
    ])
      expect(hasWatchConfigFrame(broken)).toBe(false);
  });
});
