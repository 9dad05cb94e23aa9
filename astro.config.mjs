// @ts-check
import cloudflare from '@astrojs/cloudflare';
import { defineConfig } from 'astro/config';
import { validatedEvents } from './src/integrations/validated-events.ts';
import { siteUrl } from './src/node/site-url.ts';

export default defineConfig({
  site: siteUrl(),
  output: 'static',
  trailingSlash: 'never',
  build: { format: 'file' },
  // The service keeps no per-visitor state and serves no transformed images: no SESSION KV, no IMAGES binding.
  session: false,
  adapter: cloudflare({ imageService: 'passthrough' }),
  integrations: [validatedEvents()],
});
