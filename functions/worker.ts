import { handle } from '@astrojs/cloudflare/handler';
import { withCommonHeaders } from '../src/server/http/cors.ts';
import { readRestOfBody } from '../src/server/http/request.ts';
import { noticeBuildOnce } from '../src/server/push/first-request.ts';
import type { PushQueueMessage } from '../src/server/push/messages.ts';
import { runPushQueue, runScheduledDispatch } from '../src/server/push/worker-handlers.ts';
import { runScheduledWatch } from '../src/server/watch/cron.ts';
import { WEBSUB_QUEUE_NAME, type WebSubQueueMessage } from '../src/server/websub/messages.ts';
import { answerEdgeRoute } from './app.ts';

/**
 * The worker's entry. Plain static assets are answered by the platform before it runs; the paths of
 * `assets.run_worker_first` and everything that is not a file come here. The route table's edge routes answer
 * first (functions/app.ts), everything else goes to Astro's on-demand pages. Every response leaves with CORS
 * `*` and `nosniff`.
 */
export default {
  async fetch(request, env, context) {
    const response = withCommonHeaders(
      (await answerEdgeRoute(request, edgeBindings(env, context))) ?? (await answerWithAstro(request, env, context)),
    );
    // Once the answer is made: a new build's events are pushed at once (docs/push.md, "A new build").
    noticeBuildOnce(env, context);
    return response;
  },
  // Web Push (docs/push.md): the cron finds new events and fans out through the queue; the consumer sends.
  async scheduled(controller, env) {
    await runScheduledWatch(env, new Date(controller.scheduledTime)); // the watcher first (docs/watch.md)
    await runScheduledDispatch(env, new Date(controller.scheduledTime));
  },
  async queue(batch, env) {
    // WebSub's queue (docs/push.md, "WebSub"): its consumer is loaded only when one of its batches comes.
    if (batch.queue === WEBSUB_QUEUE_NAME) {
      const { runWebSubQueue } = await import('../src/server/websub/hub.ts');
      await runWebSubQueue(batch as MessageBatch<WebSubQueueMessage>, env);
    } else await runPushQueue(batch as MessageBatch<PushQueueMessage>, env);
  },
} satisfies ExportedHandler<Env, PushQueueMessage | WebSubQueueMessage>;

/** Astro's answer, then what it left of the request's body read, as after an edge route's (functions/app.ts). */
async function answerWithAstro(request: Request, env: Env, context: ExecutionContext): Promise<Response> {
  const response = await handle(request, env, context);
  await readRestOfBody(request);
  return response;
}

/**
 * In `astro dev` the ASSETS binding holds only public/, so the prerendered files the edge routes read are not
 * there: Astro's handler renders their routes on demand instead (asking the dev server over HTTP would come
 * back here). In a build, the bindings as they are.
 */
function edgeBindings(env: Env, context: ExecutionContext): Env {
  if (!import.meta.env.DEV) return env;
  const astroAssets = {
    fetch: (input: RequestInfo | URL, init?: RequestInit) => handle(new Request(input, init), env, context),
  };
  return { ...env, ASSETS: astroAssets as unknown as Fetcher };
}
