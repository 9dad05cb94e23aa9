/**
 * A fan-out page's messages, the same for every channel (docs/push.md, "Dispatch and delivery"): no invocation does
 * more than one page of work, whatever the number of subscribers.
 */

/** The most messages one `sendBatch` takes. */
export const SEND_BATCH_MAX = 100;

/**
 * The next page's fan-out first, when this page was full (there may be more): the chain of pages moves on while
 * this page's sends are being made. Then this page's ids in chunks, a delivery message each.
 */
export function pageMessages<M>(
  ids: readonly number[],
  sizes: { page: number; chunk: number },
  nextPage: (afterId: number) => M,
  deliver: (ids: number[]) => M,
): M[] {
  const messages: M[] = [];
  const last = ids.at(-1);
  if (ids.length === sizes.page && last !== undefined) messages.push(nextPage(last));
  for (let start = 0; start < ids.length; start += sizes.chunk)
    messages.push(deliver(ids.slice(start, start + sizes.chunk)));
  return messages;
}

/** Sends `messages` in `sendBatch` calls of at most `SEND_BATCH_MAX`. */
export async function sendAll<M>(
  queue: { sendBatch(messages: Iterable<MessageSendRequest<M>>): Promise<unknown> },
  messages: readonly M[],
): Promise<void> {
  for (let start = 0; start < messages.length; start += SEND_BATCH_MAX)
    await queue.sendBatch(
      messages.slice(start, start + SEND_BATCH_MAX).map((body) => ({ body, contentType: 'json' as const })),
    );
}
