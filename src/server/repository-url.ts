/**
 * The repository's address (`REPOSITORY_URL` at build time, through `repositoryBaseUrl`), fixed when the site is
 * built: src/integrations/repository-url.ts hands it to the worker and the pages as the constant below (Vite
 * `define`), as the provenance's commit links and the watcher's review links read it in the build. `null` when it
 * was not set, and outside a build (unit tests in Node): the pages then show no report link (docs/website.md).
 */
declare const __DEPARTURES_REPOSITORY_URL__: string | null | undefined;

export const REPOSITORY_URL: string | null =
  typeof __DEPARTURES_REPOSITORY_URL__ === 'string' ? __DEPARTURES_REPOSITORY_URL__ : null;

/** The name of the build-time constant, for the build that defines it. */
export const REPOSITORY_URL_CONSTANT = '__DEPARTURES_REPOSITORY_URL__';
