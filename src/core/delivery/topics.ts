import type { Event } from '../schemas.ts';
import type { EventKind, Provider } from '../vocabulary.ts';
import { topicsChangedBy } from '../websub/topics.ts';

/**
 * The topics a subscriber can choose, as the delivery wing stores them (docs/delivery.md): `<provider>/<kind>` for
 * the channels whose subscribers choose providers and kinds (push, chat), a feed's canonical address for WebSub.
 */

export const providerKindTopic = (provider: Provider, kind: EventKind): string => `${provider}/${kind}`;

/** Every pair of `providers` and `kinds` as topics. */
export const providerKindTopics = (providers: readonly Provider[], kinds: readonly EventKind[]): string[] =>
  providers.flatMap((provider) => kinds.map((kind) => providerKindTopic(provider, kind)));

/** The topics an event's transition reaches: its provider and kind, and every feed that lists it. */
export const topicsOf = (event: Pick<Event, 'provider' | 'kind'>, baseUrl: string): string[] => [
  providerKindTopic(event.provider, event.kind),
  ...topicsChangedBy(baseUrl, [event.provider]),
];
