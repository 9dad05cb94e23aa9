import type { EdgeHandlers } from '../route-handler.ts';

/**
 * The WebSub hub's route (decisions.md, "WebSub"; docs/delivery.md). Its code is loaded at its first request, never
 * with the worker: a feed reader's subscription is rare, and a cold start pays for every module it evaluates.
 */
export const WEBSUB_HANDLERS = {
  postWebSub: async (context) =>
    (await import('../../src/server/delivery/channels/websub/hub-request.ts')).handleHubRequest(context),
} satisfies Partial<EdgeHandlers>;
