import { asksForBuiltFile, withBuiltFiles } from '../src/server/built-files.ts';
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
 * `*` and `nosniff`. Whatever reads a built file reads it from the ASSETS of `withBuiltFiles(env)`
 * (src/server/built-files.ts), in every mode.
 */
export default {
  async fetch(request, env, context) {
    if (asksForBuiltFile(request)) return withCommonHeaders(await answerWithAstro(request, env, context));
    const response = withCommonHeaders(
      (await answerEdgeRoute(request, withBuiltFiles(env))) ?? (await answerWithAstro(request, env, context)),
    );
    // Once the answer is made: a new build's events are pushed at once (docs/push.md, "A new build").
    noticeBuildOnce(env, context);
    return response;
  },
  // The minute cron: the watcher polls the sources (docs/watch.md), then the dispatch finds new events and fans
  // them out to every channel through the queue (docs/push.md); the consumers send.
  async scheduled(controller, env) {
    const bindings = withBuiltFiles(env);
    await runScheduledWatch(bindings, new Date(controller.scheduledTime));
    await runScheduledDispatch(bindings, new Date(controller.scheduledTime));
  },
  async queue(batch, env) {
    // WebSub's queue (docs/push.md, "Writing a subscription", "Dispatch and delivery"): its consumer is loaded only
    // when one of its batches comes.
    if (batch.queue === WEBSUB_QUEUE_NAME) {
      const { runWebSubQueue } = await import('../src/server/websub/hub.ts');
      await runWebSubQueue(batch as MessageBatch<WebSubQueueMessage>, withBuiltFiles(env));
    } else await runPushQueue(batch as MessageBatch<PushQueueMessage>, withBuiltFiles(env));
  },
} satisfies ExportedHandler<Env, PushQueueMessage | WebSubQueueMessage>;

/**
 * Astro's handler and its runtime, loaded by the first request for a page: a third of the worker's code, which
 * an isolate that answers only the API never runs (docs/performance.md, "The cold start").
 */
const astroHandler = () => import('@astrojs/cloudflare/handler').then((module) => module.handle);

/** Astro's answer, then what it left of the request's body read, as after an edge route's (functions/app.ts). */
async function answerWithAstro(request: Request, env: Env, context: ExecutionContext): Promise<Response> {
  const response = await (await astroHandler())(request, env, context);
  await readRestOfBody(request);
  return response;
}
