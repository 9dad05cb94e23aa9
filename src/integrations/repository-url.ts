import type { AstroIntegration } from 'astro';
import { repositoryBaseUrl } from '../core/event-report.ts';
import { REPOSITORY_URL_CONSTANT } from '../server/repository-url.ts';

/**
 * Hands `REPOSITORY_URL`, read once when the build (or the dev server) starts, to the pages rendered at the edge,
 * which cannot read the build's environment: the report link under each event opens the repository's issue form
 * (src/core/event-report.ts). Unset, empty or not an http(s) address, it is `null` and no link is shown.
 */
export function repositoryUrl(): AstroIntegration {
  return {
    name: 'departures-board:repository-url',
    hooks: {
      'astro:config:setup': ({ updateConfig }) => {
        const value = repositoryBaseUrl(process.env.REPOSITORY_URL);
        updateConfig({ vite: { define: { [REPOSITORY_URL_CONSTANT]: JSON.stringify(value) } } });
      },
    },
  };
}
