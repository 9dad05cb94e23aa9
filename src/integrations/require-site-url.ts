import type { AstroIntegration } from 'astro';
import { missingSiteUrlProblem } from '../node/site-url.ts';

/** Stops `astro build` in CI without SITE_URL, before any work, with one message that names SITE_URL. */
export function requireSiteUrl(): AstroIntegration {
  return {
    name: 'departures-board:require-site-url',
    hooks: {
      'astro:config:setup': ({ command }) => {
        const problem = command === 'build' ? missingSiteUrlProblem() : null;
        if (problem !== null) throw new Error(problem);
      },
    },
  };
}
