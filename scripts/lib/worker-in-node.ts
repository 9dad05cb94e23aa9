import { registerHooks } from 'node:module';

/**
 * The production bundle (dist/server) imported into this Node process, the same V8 as workerd's: the CPU benchmark
 * (scripts/bench/cpu.ts) and the pages' two-paths test (tests/support/page-renders.ts) run the built worker so.
 * Only its `cloudflare:workers` import is Workers-specific: its `env` is the bindings the caller sets with
 * `setWorkerEnv` (the handlers receive them as `env` anyway; the on-demand pages read them from the module).
 */
const WORKERS_MODULE = [
  'export const env = globalThis.__benchWorkerEnv ?? {};',
  'export const waitUntil = () => {}; export default {};',
].join(' ');

let prepared = false;

/** Answers the bundle's `cloudflare:` imports, and gives it workerd's `navigator.userAgent`. Call before importing it. */
export function prepareForBuiltWorker(): void {
  if (prepared) return;
  prepared = true;
  registerHooks({
    resolve: (specifier, context, next) =>
      specifier.startsWith('cloudflare:')
        ? { url: `data:text/javascript,${encodeURIComponent(WORKERS_MODULE)}`, shortCircuit: true }
        : next(specifier, context),
  });
  /**
   * workerd's navigator.userAgent, which libraries read to learn they run on Workers: zod then never tries to compile
   * a schema's parser with `new Function` (the platform forbids it), as it would in Node, at a cost of milliseconds
   * a first parse does not pay on Workers.
   */
  Object.defineProperty(globalThis, 'navigator', {
    value: { ...globalThis.navigator, userAgent: 'Cloudflare-Workers' },
    configurable: true,
  });
}

/** The bindings the bundle's `import { env } from 'cloudflare:workers'` sees: set before importing it (read once). */
export function setWorkerEnv(env: unknown): void {
  (globalThis as { __benchWorkerEnv?: unknown }).__benchWorkerEnv = env;
}

/** The built worker's handler. */
export interface BuiltWorker {
  fetch(request: Request, env: unknown, context: unknown): Promise<Response>;
}

export const EXECUTION_CONTEXT = { waitUntil: () => undefined, passThroughOnException: () => undefined, props: {} };
