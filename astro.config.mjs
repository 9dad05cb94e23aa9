// @ts-check
import cloudflare from '@astrojs/cloudflare';
import { defineConfig } from 'astro/config';
import { sdkValidatorForWorkers } from './functions/mcp/sdk-adapter.ts';
import { buildId } from './src/integrations/build-id.ts';
import { buildTimeModules } from './src/integrations/build-time-modules.ts';
import { checkedWords } from './src/integrations/checked-words.ts';
import { languagePages } from './src/integrations/language-pages.ts';
import { requireSiteUrl } from './src/integrations/require-site-url.ts';
import { repositoryUrl } from './src/integrations/repository-url.ts';
import { staticHeaders } from './src/integrations/static-headers.ts';
import { validatedEvents } from './src/integrations/validated-events.ts';
import { servePort, siteUrl } from './src/node/site-url.ts';

// `npm run dev` runs the worker in Miniflare through Cloudflare's Vite plugin, which otherwise keeps a local trace
// store recording each outgoing fetch's whole URL, webhook URLs and push endpoints included (docs/deploy.md, "Logs
// and traces"; scripts/lib/tools.ts does the same for wrangler). Set it to true to look at local traces.
process.env.X_LOCAL_OBSERVABILITY ??= 'false';

// Checks the events and reads the data set marker; the _headers writer says "sample data" when it does.
const events = validatedEvents();

export default defineConfig({
  site: siteUrl(),
  // `npm run dev` listens on PORT like `npm start` (4321 when unset).
  server: { port: servePort() },
  output: 'static',
  trailingSlash: 'never',
  // Stylesheets as files, never inline, so the Content-Security-Policy needs no 'unsafe-inline'.
  build: { format: 'file', inlineStylesheets: 'never' },
  // The service keeps no per-visitor state and serves no transformed images: no SESSION KV, no IMAGES binding.
  session: false,
  // No worker inspector in Astro's runs (a build prerenders in workerd): each would take the first free port from
  // 9229, and two runs starting together (the tests build copies side by side) can both take the same one.
  // `npm start` (wrangler dev) keeps its inspector.
  adapter: cloudflare({ imageService: 'passthrough', inspectorPort: false }),
  vite: {
    // Scripts as files too: Astro inlines small ones otherwise.
    build: { assetsInlineLimit: 0 },
    // npm run dev: optimized up front, not found on the first page that needs it (which cost a second
    // optimization and a reload of every module).
    ssr: { optimizeDeps: { include: ['feedsmith'] } },
    // The worker minified (Astro leaves server code as it is): half the bytes a new isolate parses before its
    // first request, and a third less of the 350 KiB gzip budget. Function and class names are kept, for the
    // logs' stack traces and the libraries that read them (docs/performance.md, "The cold start").
    environments: { ssr: { build: { rolldownOptions: { output: { minify: true, keepNames: true } } } } },
    // The MCP SDK's default validator in the worker: its Workers-safe one, not Ajv (functions/mcp/sdk-adapter.ts, 4).
    // The words of every language, their constants filled, as data the build computes (filled-words.ts).
    plugins: [
      sdkValidatorForWorkers(),
      buildTimeModules([
        new URL('./src/core/i18n/filled-words.ts', import.meta.url),
        new URL('./src/server/page-warm-up-data.ts', import.meta.url),
      ]),
    ],
  },
  integrations: [
    requireSiteUrl(),
    checkedWords(),
    languagePages(),
    buildId(),
    repositoryUrl(),
    events,
    staticHeaders({ servesSampleData: events.servesSampleData }),
  ],
});
