import type { Transition } from '../../core/push/due.ts';
import type { Provider } from '../../core/vocabulary.ts';
import { topicsChangedBy } from '../../core/websub/topics.ts';
import type { WebSubFanoutMessage, WebSubProducer } from './messages.ts';

/** What the push dispatcher hands WebSub (src/server/push/dispatch.ts): each run's claimed changes as one fan-out. */

export { pruneWebSub } from './store.ts';

/** An (event, transition) pair the push dispatcher claimed and fans out. */
export interface ClaimedChange {
  event: { id: string; provider: Provider };
  transition: Transition;
}

/** One dispatch run's claimed pairs as the fan-out of the topics they change; `undefined` when it claimed none. */
export function webSubChange(baseUrl: string, claimed: readonly ClaimedChange[]): WebSubFanoutMessage | undefined {
  if (claimed.length === 0) return undefined;
  const change = claimed.map(({ event, transition }) => `${event.id}/${transition}`).sort()[0]!;
  const providers = [...new Set(claimed.map(({ event }) => event.provider))];
  return { type: 'websub-fanout', change, topics: topicsChangedBy(baseUrl, providers), afterId: 0 };
}

/**
 * Hands one dispatch run's claimed pairs to the WebSub queue as one fan-out (nothing when it claimed none). Called
 * by the push dispatcher (src/server/push/dispatch.ts), which gives its claims back when this throws.
 */
export async function announceWebSubChange(
  queue: Pick<WebSubProducer, 'send'>,
  baseUrl: string,
  claimed: readonly ClaimedChange[],
): Promise<void> {
  const message = webSubChange(baseUrl, claimed);
  if (message !== undefined) await queue.send(message, { contentType: 'json' });
}
