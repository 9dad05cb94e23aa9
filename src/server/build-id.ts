/**
 * The id of the build this code is part of, set by astro.config.mjs (`vite.define`) in every module of one
 * build: the pages that write the data files and the worker that reads them. Undefined where the source runs
 * unbuilt: the in-process tests, which then accept any build of the same data schema version. A defined global,
 * not `import.meta.env`, whose unknown names Vite answers with a copy of the environment.
 */
export const BUILD_ID: string | undefined =
  typeof __DEPARTURES_BUILD_ID__ === 'undefined' ? undefined : __DEPARTURES_BUILD_ID__;

/**
 * Whether this is `astro dev` (built with the fixed id `dev`); Vitest sets DEV too, but runs unbuilt code, and plain
 * Node (the benchmark's scripts) has no `import.meta.env` at all: the build id is asked first. Written out as
 * `import.meta.env.DEV`, the form Vite replaces (`import.meta.env?.DEV` it leaves alone, and dev then read false).
 */
export const IN_ASTRO_DEV: boolean = BUILD_ID !== undefined && import.meta.env.DEV;

/** When this build ran (ISO 8601); undefined in unbuilt code. */
export const BUILT_AT: string | undefined =
  typeof __DEPARTURES_BUILT_AT__ === 'undefined' ? undefined : __DEPARTURES_BUILT_AT__;

/** The state database's migration files this build was made with; undefined in unbuilt code. */
export const BUILD_MIGRATIONS: readonly string[] | undefined =
  typeof __DEPARTURES_MIGRATIONS__ === 'undefined' ? undefined : __DEPARTURES_MIGRATIONS__;
