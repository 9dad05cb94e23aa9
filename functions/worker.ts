import { handle } from '@astrojs/cloudflare/handler';
import { withCommonHeaders } from '../src/server/http/cors.ts';
import { answerEdgeRoute } from './app.ts';

/**
 * The worker's entry. Plain static assets are answered by the platform before it runs; the paths of
 * `assets.run_worker_first` and everything that is not a file come here. The route table's edge routes answer
 * first (functions/app.ts), everything else goes to Astro's on-demand pages. Every response leaves with CORS
 * `*` and `nosniff`.
 */
export default {
  async fetch(request, env, context) {
    return withCommonHeaders((await answerEdgeRoute(request, env)) ?? (await handle(request, env, context)));
  },
} satisfies ExportedHandler<Env>;
