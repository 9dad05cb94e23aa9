import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { draftKey, draftKeysOf, hasWatchConfigFrame, RepositoryUrlSchema, WatchConfigSchema } from './watch-config.ts';

const config = WatchConfigSchema.parse({
  sources: JSON.parse(readFileSync('content/watch/sources.json', 'utf8')),
  rules: JSON.parse(readFileSync('content/watch/classification.json', 'utf8')),
  repositoryUrl: 'https://github.com/example-owner/departures-board/',
  draftKeys: [],
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
      { ...config, draftKeys: undefined },
      { ...config, draftKeys: undefined, drafts: [] },
      { ...config, repositoryUrl: 42 },
    ])
      expect(hasWatchConfigFrame(broken)).toBe(false);
  });
});

describe('the drafts of the built tree, as the public file carries them', () => {
  const draft = { id: '1843001795212600046', sourceUrl: 'https://posts.provider-a.example/@a/1843001795212600046' };

  it('is the SHA-256 of a text as UTF-8, in hex (FIPS 180-2’s "abc" and a non-ASCII text)', async () => {
    expect(await draftKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await draftKey('é')).toBe(createHash('sha256').update('é', 'utf8').digest('hex'));
  });

  it('carries each id’s and post URL’s key, sorted, each once, and neither the id nor the URL', async () => {
    const keys = await draftKeysOf([draft, draft]);
    expect(keys).toEqual([await draftKey(draft.id), await draftKey(draft.sourceUrl)].sort());
    const file = JSON.stringify(WatchConfigSchema.parse({ ...config, draftKeys: keys }));
    expect(file).not.toContain(draft.id);
    expect(file).not.toContain(draft.sourceUrl);
    expect(WatchConfigSchema.safeParse({ ...config, draftKeys: [draft.id] }).success).toBe(false);
  });
});
