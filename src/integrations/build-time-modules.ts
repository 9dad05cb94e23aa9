import { fileURLToPath, pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import type { Plugin } from 'vite';

/** The helper the built module reads a record per key with, as the bundler finds it. */
const LAZY_RECORD = fileURLToPath(new URL('../core/lazy-record.ts', import.meta.url));

/**
 * Modules whose exports are plain data known before the service runs, evaluated once by the build and put in the
 * bundle as that data: each export becomes `JSON.parse` of a string literal, which V8 reads several times faster than
 * the object literals and code that made it, and a new isolate runs none of that code (docs/performance.md,
 * "The cold start"). A record of objects (every language's words) is parsed per key on its first read
 * (src/core/lazy-record.ts), so an isolate parses only the languages it answers in. Only `astro build`: the dev
 * server and Node (the tests, the commands) evaluate the module as it is, so an edited words file shows at once there.
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
      return moduleOfData((await import(pathToFileURL(file).href)) as Record<string, unknown>, file, LAZY_RECORD);
    },
  };
}

/**
 * The source of a module that exports the same data as `exports`; a function or other non-data is refused.
 * `lazyRecordModule` is where the module imports `lazyRecord` from (a path the bundler resolves, or a URL).
 */
export function moduleOfData(
  exports: Readonly<Record<string, unknown>>,
  file: string,
  lazyRecordModule: string,
): string {
  const lines = Object.entries(exports).map(([name, value]) => {
    const json = JSON.stringify(value);
    // JSON drops or changes a function, undefined, a Date, a Map, a class's instance and a non-finite number.
    if (json === undefined || !isDeepStrictEqual(value, JSON.parse(json)))
      throw new Error(`${file}: the export "${name}" is not plain data, so the build cannot compute it ahead`);
    if (!isRecordOfObjects(value)) return `export const ${name} = JSON.parse(${JSON.stringify(json)});`;
    const texts = Object.fromEntries(Object.entries(value).map(([key, item]) => [key, JSON.stringify(item)]));
    return `const ${name}_TEXT = ${JSON.stringify(texts)};
export const ${name} = lazyRecord(Object.keys(${name}_TEXT), (key) => JSON.parse(${name}_TEXT[key]));`;
  });
  return [`import { lazyRecord } from ${JSON.stringify(lazyRecordModule)};`, ...lines].join('\n');
}

/** A record whose every value is an object (not a list): each value can be parsed apart. */
const isRecordOfObjects = (value: unknown): value is Record<string, object> =>
  value !== null &&
  typeof value === 'object' &&
  !Array.isArray(value) &&
  Object.values(value).every((item) => item !== null && typeof item === 'object' && !Array.isArray(item));
