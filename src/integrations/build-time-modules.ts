import { fileURLToPath, pathToFileURL } from 'node:url';
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
      if (json === undefined || !sameData(value, JSON.parse(json)))
        throw new Error(`${file}: the export "${name}" is not plain data, so the build cannot compute it ahead`);
      return `export const ${name} = JSON.parse(${JSON.stringify(json)});`;
    })
    .join('\n');
}

/** Whether `value` survives JSON unchanged (no function, undefined, Date, Map or non-finite number inside). */
function sameData(value: unknown, copy: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value === copy;
  if (typeof value === 'number') return Number.isFinite(value) && value === copy;
  if (Array.isArray(value))
    return Array.isArray(copy) && value.length === copy.length && value.every((item, i) => sameData(item, copy[i]));
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const entries = Object.entries(value);
    return (
      copy !== null &&
      typeof copy === 'object' &&
      entries.length === Object.keys(copy).length &&
      entries.every(([key, item]) => sameData(item, (copy as Record<string, unknown>)[key]))
    );
  }
  return false;
}
