import { answerEdgeRoute } from '../../functions/app.ts';
import { recordMcpAnswers } from '../../functions/mcp/recorded-answers.ts';
import { MCP_ANSWERS_PATH } from '../../src/core/mcp/recorded-answers.ts';
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
    ASSETS: withRecordedMcpAnswers(files),
    MCP_RATE_LIMITER: options.rateLimiter ?? OPEN_RATE_LIMITER,
    SOURCE_HEALTH: options.sourceHealth ?? memoryKv(),
    ...options.push,
  };
  return {
    env,
    request: (requestPath, init, now) => answerEdgeRoute(new Request(new URL(requestPath, origin), init), env, now),
  };
}

/**
 * The built files, and the SDK's recorded MCP answers where they lack them (a build records them with its pages:
 * src/pages/data/mcp-answers.json.ts), recorded here once on first use as the build would for real data.
 */
function withRecordedMcpAnswers(files: BuiltFiles): Fetcher {
  const assets = assetsBinding(files);
  if (files.has(MCP_ANSWERS_PATH)) return assets;
  let recorded: Promise<string> | undefined;
  const fetchAsset = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    if (new URL(request.url).pathname !== MCP_ANSWERS_PATH) return assets.fetch(request);
    recorded ??= recordMcpAnswers(false).then((answers) => JSON.stringify(answers));
    return new Response(await recorded, { headers: { 'Content-Type': 'application/json' } });
  };
  return { fetch: fetchAsset } as unknown as Fetcher;
}
