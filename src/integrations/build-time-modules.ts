import { fileURLToPath, pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import type { Plugin } from 'vite';

/**
 * Modules whose exports are plain data known before the service runs, evaluated once by the build and put in the
 * bundle as that data: each export becomes `JSON.parse` of a string literal, which V8 reads several times faster than
 * the object literals and code that made it, and a new isolate runs none of that code (docs/performance.md,
 * "The cold start"). Only `astro build`: the dev server and Node (the tests, the commands) evaluate the module as it
 * is, so an edited words file shows at once there.
 */
export function buildTimeModules(modules: readonly URL[]): Plugin {
  const files = new Set(modules.map((module) => fileURLToPath(module)));
  return {
    name: 'departures-board:build-time-modules',
    apply: 'build',
    enforce: 'pre',
    async load(id) {
      const file = id.split('?')[0] ?? id;
      if (!files.has(file)) return null;
      return moduleOfData((await import(pathToFileURL(file).href)) as Record<string, unknown>, file);
    },
  };
}

/** The source of a module that exports the same data as `exports`; a function or other non-data is refused. */
export function moduleOfData(exports: Readonly<Record<string, unknown>>, file: string): string {
  return Object.entries(exports)
    .map(([name, value]) => {
      const json = JSON.stringify(value);
      // JSON drops or changes a function, undefined, a Date, a Map, a class's instance and a non-finite number.
      if (json === undefined || !isDeepStrictEqual(value, JSON.parse(json)))
        throw new Error(`${file}: the export "${name}" is not plain data, so the build cannot compute it ahead`);
      return `export const ${name} = JSON.parse(${JSON.stringify(json)});`;
    })
    .join('\n');
}
