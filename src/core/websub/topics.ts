import { FEED_FORMATS, type FeedFormat, feedSelfUrl } from '../render/feed-formats.ts';
import { PROVIDERS, type Provider } from '../vocabulary.ts';

/**
 * The WebSub topics (decisions.md, "WebSub"): every feed the service advertises, in each format, of all providers
 * and of each one, named by its canonical address (`rel="self"`). The hub serves these and nothing else.
 */

export interface WebSubTopic {
  /** The canonical address, as the feed names itself and as it is stored. */
  url: string;
  format: FeedFormat;
  provider: Provider | undefined;
}

const FORMATS = Object.keys(FEED_FORMATS) as FeedFormat[];
const SELECTIONS: readonly (Provider | undefined)[] = [undefined, ...PROVIDERS];

export const webSubTopics = (baseUrl: string): WebSubTopic[] =>
  FORMATS.flatMap((format) =>
    SELECTIONS.map((provider) => ({ url: feedSelfUrl(baseUrl, format, provider), format, provider })),
  );

/**
 * The topic `text` names (any spelling the URL parser reads as the same address: `HTTP://Host/feed.xml`), or
 * `undefined` when it is none of the advertised ones.
 */
export function findTopic(baseUrl: string, text: string): WebSubTopic | undefined {
  let href: string;
  try {
    href = new URL(text).href;
  } catch {
    return undefined;
  }
  return webSubTopics(baseUrl).find((topic) => new URL(topic.url).href === href);
}

/**
 * The topics whose content changes when events of `providers` are published or take effect: each format's feed of
 * all providers, and of each of those providers.
 */
export const topicsChangedBy = (baseUrl: string, providers: readonly Provider[]): string[] =>
  webSubTopics(baseUrl)
    .filter((topic) => topic.provider === undefined || providers.includes(topic.provider))
    .map((topic) => topic.url);
