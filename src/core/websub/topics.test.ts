import { describe, expect, it } from 'vitest';
import { findTopic, topicsChangedBy, webSubTopics } from './topics.ts';

/** The topics the hub serves (decisions.md, "WebSub"): written out by hand here, not computed by the code under test. */

const BASE = 'https://board.example';
const ALL_TOPICS = [
  'https://board.example/feed.xml',
  'https://board.example/feed.xml?provider=provider_a',
  'https://board.example/feed.xml?provider=provider_b',
  'https://board.example/feed.xml?provider=provider_c',
  'https://board.example/feed.atom',
  'https://board.example/feed.atom?provider=provider_a',
  'https://board.example/feed.atom?provider=provider_b',
  'https://board.example/feed.atom?provider=provider_c',
  'https://board.example/feed.json',
  'https://board.example/feed.json?provider=provider_a',
  'https://board.example/feed.json?provider=provider_b',
  'https://board.example/feed.json?provider=provider_c',
];

describe('WebSub topics', () => {
  it('are the twelve feeds, each at the address it names itself by', () => {
    expect(webSubTopics(BASE).map((topic) => topic.url)).toEqual(ALL_TOPICS);
  });

  it.each([
    ['the address itself', 'https://board.example/feed.atom?provider=provider_a'],
    ['an upper-case scheme and host', 'HTTPS://BOARD.Example/feed.atom?provider=provider_a'],
    ['the explicit default port', 'https://board.example:443/feed.atom?provider=provider_a'],
    ['a dot segment', 'https://board.example/./feed.atom?provider=provider_a'],
  ])('are found under %s', (_name, text) => {
    expect(findTopic(BASE, text)).toEqual({
      url: 'https://board.example/feed.atom?provider=provider_a',
      format: 'atom',
      provider: 'provider_a',
    });
  });

  it.each([
    ['another host', 'https://elsewhere.example/feed.xml'],
    ['another path', 'https://board.example/api/status'],
    ['an unknown provider', 'https://board.example/feed.xml?provider=provider_z'],
    ['another query', 'https://board.example/feed.xml?provider=provider_a&x=1'],
    ['the alias of the RSS feed', 'https://board.example/api/feed'],
    ['plain http', 'http://board.example/feed.xml'],
    ['a relative address', '/feed.xml'],
    ['no URL', 'feed'],
  ])('are not %s', (_name, text) => {
    expect(findTopic(BASE, text)).toBeUndefined();
  });

  it('changed by events of one provider: that provider’s feeds and the feeds of all, in every format', () => {
    expect(topicsChangedBy(BASE, ['provider_b'])).toEqual([
      'https://board.example/feed.xml',
      'https://board.example/feed.xml?provider=provider_b',
      'https://board.example/feed.atom',
      'https://board.example/feed.atom?provider=provider_b',
      'https://board.example/feed.json',
      'https://board.example/feed.json?provider=provider_b',
    ]);
    expect(topicsChangedBy(BASE, ['provider_a', 'provider_b', 'provider_c'])).toEqual(ALL_TOPICS);
  });
});
