import { handle } from '@astrojs/cloudflare/handler';
import { createContext } from './context.ts';
import { DataSourceUnavailable } from './data-source.ts';
import { PREFLIGHT_PATHS, preflightResponse, withCommonHeaders } from './http/cors.ts';
import { internalError } from './http/responses.ts';
import { handleMcp } from './mcp/handler.ts';
import { findRoute } from './router.ts';
import { MCP_PATHS } from '../src/core/mcp/catalogue.ts';

/**
 * The worker's entry. Plain static assets are answered by the platform before it runs; the paths of
 * `assets.run_worker_first` and everything that is not a file come here. The edge routes answer first,
 * everything else goes to Astro's on-demand pages. Every response leaves with CORS `*` and `nosniff`.
 */

const ALLOW = 'GET, HEAD, OPTIONS';

async function route(request: Request, env: Env, context: ExecutionContext): Promise<Response> {
  const { pathname } = new URL(request.url);
  if ((MCP_PATHS as readonly string[]).includes(pathname))
    return guarded(pathname, () => handleMcp(request, env, createContext(request, env, context)));
  if (request.method === 'OPTIONS' && PREFLIGHT_PATHS.has(pathname)) return preflightResponse();
  const handler = findRoute(pathname);
  if (handler === undefined) return handle(request, env, context);
  if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: { Allow: ALLOW } });
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return new Response(null, { status: 405, headers: { Allow: ALLOW } });
  }
  return guarded(pathname, async () => {
    const response = await handler(createContext(request, env, context));
    return request.method === 'HEAD' ? new Response(null, response) : response;
  });
}

/** A handler's answer, or `internal_error` (logged, never with details) when it throws. */
async function guarded(pathname: string, answer: () => Promise<Response>): Promise<Response> {
  try {
    return await answer();
  } catch (error) {
    if (error instanceof DataSourceUnavailable) console.warn(error.message);
    else console.error('unexpected error in', pathname, error);
    return internalError();
  }
}

export default {
  async fetch(request, env, context) {
    return withCommonHeaders(await route(request, env, context));
  },
} satisfies ExportedHandler<Env>;
