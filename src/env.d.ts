/** One id per `astro build` (astro.config.mjs `vite.define`): the stamp of the data files the build writes. */
declare const __DEPARTURES_BUILD_ID__: string | undefined;
/** When that build ran, and its state-database migration files (src/integrations/build-id.ts). */
declare const __DEPARTURES_BUILT_AT__: string | undefined;
declare const __DEPARTURES_MIGRATIONS__: readonly string[] | undefined;
