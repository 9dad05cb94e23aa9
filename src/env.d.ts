/** One id per `astro build` (astro.config.mjs `vite.define`): the stamp of the data files the build writes. */
declare const __DEPARTURES_BUILD_ID__: string | undefined;
