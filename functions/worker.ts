import { asksForBuiltFile, withBuiltFiles } from '../src/server/built-files.ts';
import { withCommonHeaders } from '../src/server/http/cors.ts';
import { readRestOfBody } from '../src/server/http/request.ts';
import { noticeBuildOnce } from '../src/server/delivery/first-request.ts';
import type { Event } from '../src/core/schemas.ts';
import type { DeliveryMessage } from '../src/server/delivery/messages.ts';
import { journalEvents, journalStateKey } from '../src/server/journal/read.ts';
import { retireJournalNow } from '../src/server/journal/retire.ts';
import { cachedPage } from '../src/server/page-cache.ts';
import { pageFromTemplate } from '../src/server/page-templates.ts';
import { runRecordedSchedule } from '../src/server/health/scheduled.ts';
// Not loaded lazily as the delivery wing is: health (GITHUB_TOKEN's part) already imports it.
import { runScheduledCommits } from '../src/server/journal/git-commit.ts';
import { answerEdgeRoute } from './app.ts';

/**
 * The worker's entry. Plain static assets are answered by the platform before it runs; the paths of
 * `assets.run_worker_first` and everything that is not a file come here. The route table's edge routes answer
 * first (functions/app.ts), everything else goes to Astro's on-demand pages, the board's, the provider pages' and the
 * tracker's through the per-minute page cache (src/server/page-cache.ts). Every response leaves with CORS
 * `*` and `nosniff`. Whatever reads a built file reads it from the ASSETS of `withBuiltFiles(env)`
 * (src/server/built-files.ts), in every mode.
 */
export default {
  async fetch(request, env, context) {
    if (asksForBuiltFile(request)) return withCommonHeaders(await answerWithAstro(request, env, context));
    // The journal of confirmed events, read at most once per request: the page cache's key and the templates'
    // condition both depend on it.
    let journal: Promise<readonly Event[]> | undefined;
    const readJournal = () => (journal ??= journalEvents(env.DB));
    const response = withCommonHeaders(
      (await answerEdgeRoute(request, withBuiltFiles(env), new Date(), (promise) => context.waitUntil(promise))) ??
        (await cachedPage(
          request,
          async (page) =>
            (await pageFromTemplate(page, withBuiltFiles(env), readJournal)) ?? answerWithAstro(page, env, context),
          (promise) => context.waitUntil(promise),
          async () => journalStateKey(await readJournal()),
        )),
    );
    // Once the answer is made: a new build's events leave at once (docs/delivery.md, "A new build").
    noticeBuildOnce(env, context);
    return response;
  },
  // The minute cron, at its own clock: the watcher polls the sources (docs/watch.md), the delivery wing dispatches
  // what became due and queues again whatever is due and not held (docs/delivery.md), and beside it the confirmed
  // events' files not yet in git are committed (docs/watch.md, "The journal"), so that a slow GitHub never holds a
  // delivery back; the run's outcome is recorded and the service's health judged, and the operator told of a part
  // that failed or recovered (docs/health.md).
  async scheduled(controller, env) {
    const bindings = withBuiltFiles(env);
    const now = new Date(controller.scheduledTime);
    await runRecordedSchedule(bindings, now, async () => {
      const failed: string[] = [];
      await (await watcher()).runScheduledWatch(bindings, now, () => failed.push('watch'));
      const commits = runScheduledCommits(bindings, now).catch((error: unknown) => {
        console.error(
          `the journal's commits of ${now.toISOString()} failed; the next minute's run tries again:`,
          error,
        );
        failed.push('commits');
      });
      failed.push(...(await (await deliveryWing()).runScheduledDelivery(bindings, now)));
      // The dispatch (run above whenever the queue is there) retires what the serving build holds and has read the
      // build's data set for it; only a deployment without the queue retires here, so no minute reads it twice.
      if (bindings.DELIVERY_QUEUE === undefined)
        await retireJournalNow(bindings, now).catch((error: unknown) => {
          console.error(
            `the journal's retirement of ${now.toISOString()} failed; the next minute's run tries again:`,
            error,
          );
          failed.push('journal');
        });
      await commits;
      return failed;
    });
  },
  // The delivery queue and its dead-letter queue (docs/delivery.md, "The pipeline").
  async queue(batch, env) {
    await (await deliveryWing()).runDeliveryQueue(batch, withBuiltFiles(env));
  },
} satisfies ExportedHandler<Env, DeliveryMessage>;

/**
 * The delivery wing, loaded by the first cron run or queue batch of an isolate: an isolate that answers only
 * requests never evaluates it (docs/performance.md, "The cold start").
 */
const deliveryWing = () => import('../src/server/delivery/worker-handlers.ts');

/**
 * The watcher (the feeds' parsers, the classifier and its rules), loaded by the first cron run of an isolate, as
 * the delivery wing is: no request reads a feed.
 */
const watcher = () => import('../src/server/watch/cron.ts');

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
