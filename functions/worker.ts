import { handle } from '@astrojs/cloudflare/handler';

/**
 * The worker's entry. Static assets are answered by the platform before it runs; every other request
 * comes here and, for now, goes to Astro's on-demand pages.
 */
export default {
  fetch(request, env, context) {
    return handle(request, env, context);
  },
} satisfies ExportedHandler<Env>;
