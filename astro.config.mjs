// @ts-check
import cloudflare from '@astrojs/cloudflare';
import { defineConfig } from 'astro/config';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { requireSiteUrl } from './src/integrations/require-site-url.ts';
import { staticHeaders } from './src/integrations/static-headers.ts';
import { validatedEvents } from './src/integrations/validated-events.ts';
import { servePort, siteUrl } from './src/node/site-url.ts';

// One id per build, shared by the pages that write the edge's data files and the worker that reads them.
const buildId = process.env.BUILD_ID ?? `${new Date().toISOString()}-${randomUUID().slice(0, 8)}`;
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
  adapter: cloudflare({ imageService: 'passthrough' }),
  vite: {
    define: { __DEPARTURES_BUILD_ID__: JSON.stringify(buildId) },
    // Scripts as files too: Astro inlines small ones otherwise.
    build: { assetsInlineLimit: 0 },
    // The MCP SDK's default Ajv validator is never used on Workers (see functions/mcp/without-ajv.ts).
    resolve: {
      alias: [
        {
          find: /^\.\.\/validation\/ajv-provider\.js$/,
          replacement: fileURLToPath(new URL('./functions/mcp/without-ajv.ts', import.meta.url)),
        },
      ],
    },
  },
  integrations: [requireSiteUrl(), events, staticHeaders({ servesSampleData: events.servesSampleData })],
});
