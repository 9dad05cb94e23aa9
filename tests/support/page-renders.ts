// `node tests/support/page-renders.ts DIST NOW_MS MODE REQUESTS_JSON`: each request answered by the built worker of
// DIST at the clock NOW_MS, in MODE `templates` (as served: from the build's page templates where it can,
// src/server/page-templates.ts) or `astro` (the templates hidden from the worker's ASSETS, so that it falls back to
// Astro's own render). Prints one JSON document: the answers, the modules of Astro's pages loaded while answering,
// and what the worker logged. Run by tests/page-templates.test.ts, once per mode, each in a process of its own: a
// fresh isolate, the clock fixed for the whole process, and the bundle's `cloudflare:workers` import answered by a
// loader hook (scripts/lib/worker-in-node.ts).
import { registerHooks } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SOURCE_REPORT_KEY } from '../../src/core/sources.ts';
import { assetsBinding, memoryKv, OPEN_RATE_LIMITER, readBuiltFiles } from '../../scripts/lib/built-files.ts';
import {
  type BuiltWorker,
  EXECUTION_CONTEXT,
  prepareForBuiltWorker,
  setWorkerEnv,
} from '../../scripts/lib/worker-in-node.ts';

export interface PageRequest {
  path: string;
  acceptLanguage?: string;
}

export interface PageAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type RenderMode = 'templates' | 'astro';

export interface PageRenders {
  answers: PageAnswer[];
  /** The modules of Astro's on-demand pages and their layout loaded while answering. */
  astroModulesLoaded: string[];
  /** What the worker logged as a warning or an error. */
  logged: string[];
}

const [distDir, nowArg, mode, requestsArg] = process.argv.slice(2);
if (
  distDir === undefined ||
  nowArg === undefined ||
  requestsArg === undefined ||
  (mode !== 'templates' && mode !== 'astro')
)
  throw new Error('usage: page-renders.ts DIST NOW_MS templates|astro REQUESTS_JSON');
const now = Number(nowArg);
const requests = JSON.parse(requestsArg) as PageRequest[];

// The clock, fixed: both renders of a page then see the same minute, second and millisecond.
const SystemDate = Date;
class FixedDate extends SystemDate {
  constructor(...args: unknown[]) {
    if (args.length === 0) super(now);
    else super(...(args as [string]));
  }
  static override now = () => now;
}
globalThis.Date = FixedDate as DateConstructor;

prepareForBuiltWorker();
const loaded: string[] = [];
registerHooks({
  load: (url, context, next) => {
    loaded.push(url);
    return next(url, context);
  },
});
// The chunks of Astro's on-demand pages and their layout (dist/server/chunks/<Component>_<hash>.mjs).
const ASTRO_PAGE_MODULE = /\/chunks\/(Base|HomePage|ProviderPage|TrackerPage)_[^/]+\.mjs$/;

const files = await readBuiltFiles(path.join(distDir, 'client'));
const checkedAt = new SystemDate(now - 90_000).toISOString();
const sourceReport = {
  checkedAt,
  sources: [
    {
      provider: 'provider_a',
      name: 'a',
      url: 'https://feeds.example/a.rss',
      checkedAt,
      ok: true,
      error: null,
      itemsSeen: 3,
    },
    {
      provider: 'provider_b',
      name: 'b',
      url: 'https://feeds.example/b.rss',
      checkedAt,
      ok: false,
      error: 'answered HTTP 500',
      itemsSeen: 0,
    },
  ],
};
const bindings = {
  ASSETS: assetsBinding(files),
  MCP_RATE_LIMITER: OPEN_RATE_LIMITER,
  SOURCE_HEALTH: memoryKv({ [SOURCE_REPORT_KEY]: JSON.stringify(sourceReport) }),
};
const templatesHidden = {
  ...bindings,
  ASSETS: {
    fetch: (input: RequestInfo | URL, init?: RequestInit) =>
      new URL(new Request(input, init).url).pathname.startsWith('/data/page-templates/')
        ? Promise.resolve(new Response('Not Found', { status: 404 }))
        : bindings.ASSETS.fetch(input, init),
  },
};

const env = mode === 'templates' ? bindings : templatesHidden;
// Before the import: the bundle's `cloudflare:workers` module reads its `env` once, when it is first imported.
setWorkerEnv(env);
const worker = (
  (await import(pathToFileURL(path.join(distDir, 'server', 'entry.mjs')).href)) as { default: BuiltWorker }
).default;

async function answer(request: PageRequest): Promise<PageAnswer> {
  const headers: Record<string, string> =
    request.acceptLanguage === undefined ? {} : { 'accept-language': request.acceptLanguage };
  const response = await worker.fetch(
    new Request(new URL(request.path, 'http://127.0.0.1:4321'), { headers }),
    env,
    EXECUTION_CONTEXT,
  );
  return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
}

const logged: string[] = [];
console.warn = (...args: unknown[]) => logged.push(args.map(String).join(' '));
console.error = (...args: unknown[]) => logged.push(args.map(String).join(' '));
const loadedBefore = loaded.length;
const answers: PageAnswer[] = [];
for (const request of requests) answers.push(await answer(request));
const renders: PageRenders = {
  answers,
  astroModulesLoaded: loaded.slice(loadedBefore).filter((url) => ASTRO_PAGE_MODULE.test(url)),
  logged,
};
process.stdout.write(JSON.stringify(renders));
