/**
 * The WebSub hub's code (docs/push.md, "Writing a subscription"; what it costs, "Limits"), loaded as one module at
 * its first use, never with the worker: a request to /websub (functions/api/websub.ts), a batch of its queue
 * (functions/worker.ts), a dispatch run that claimed changes (src/server/push/dispatch.ts). One module, so that the
 * bundle gets one more chunk, not one per place that loads it.
 */
export { announceWebSubChange, pruneWebSub } from './announce.ts';
export { handleHubRequest } from './hub-request.ts';
export { runWebSubQueue } from './worker-handlers.ts';
