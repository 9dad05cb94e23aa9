import type { AstroIntegration } from 'astro';
import { PREFIXED_LANGUAGES } from '../core/languages.ts';

/** The pages that depend on nothing but the code, prerendered in every language under its prefix. */
const PRERENDERED_PAGES = ['about', 'api'] as const;

/**
 * `/<prefix>/about` and `/<prefix>/api` for every language of src/core/languages.ts, from one page each
 * (src/localized-pages/). A route per language rather than `src/pages/[lang]/about.astro`: a prerendered route with
 * a parameter is never matched at the edge (Astro hands the path to an on-demand route that also matches it,
 * `[lang]/[provider]`), while a route without one is left to the built file.
 */
export function languagePages(): AstroIntegration {
  return {
    name: 'departures-board:language-pages',
    hooks: {
      'astro:config:setup': ({ injectRoute }) => {
        for (const language of PREFIXED_LANGUAGES)
          for (const page of PRERENDERED_PAGES)
            injectRoute({
              pattern: `/${language.prefix}/${page}`,
              entrypoint: new URL(`../localized-pages/${page}.astro`, import.meta.url),
              prerender: true,
            });
      },
    },
  };
}
