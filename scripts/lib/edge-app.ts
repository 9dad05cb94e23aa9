import { answerEdgeRoute } from '../../functions/app.ts';
import type { EdgeBindings } from '../../src/server/context.ts';
import type { DeliveryBindings } from '../../src/server/delivery/bindings.ts';
import { assetsBinding, memoryKv, OPEN_RATE_LIMITER, type BuiltFiles } from './built-files.ts';

/**
 * The edge routes in-process, as hono's `app.request()`: the worker's own route function called with a
 * Request, with `env.ASSETS` over built files (built-files.ts), no Astro build or workerd needed. The served
 * suite keeps what only workerd shows.
 */

export interface EdgeApp {
  /** Answers `path` (relative to the origin) as the worker would; `undefined` where the worker hands over to Astro. */
  request(path: string, init?: RequestInit, now?: Date): Promise<Response | undefined>;
  env: EdgeBindings;
}

export function edgeApp(
  files: BuiltFiles,
  options: {
    origin?: string;
    rateLimiter?: RateLimit;
    sourceHealth?: KVNamespace;
    push?: Omit<DeliveryBindings, 'ASSETS'>;
  } = {},
): EdgeApp {
  const origin = options.origin ?? 'http://localhost:4321';
  const env: EdgeBindings = {
    ASSETS: assetsBinding(files),
    MCP_RATE_LIMITER: options.rateLimiter ?? OPEN_RATE_LIMITER,
    SOURCE_HEALTH: options.sourceHealth ?? memoryKv(),
    ...options.push,
  };
  return {
    env,
    request: (requestPath, init, now) => answerEdgeRoute(new Request(new URL(requestPath, origin), init), env, now),
  };
}
