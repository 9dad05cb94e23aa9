/**
 * The id of the build this code is part of, set by astro.config.mjs for every module of one build (the pages
 * that write the data files and the worker that reads them). Undefined where the source runs unbuilt: the
 * in-process tests and benchmark, which then accept any build of the same data schema version.
 */
export const BUILD_ID: string | undefined = import.meta.env?.BUILD_ID;
