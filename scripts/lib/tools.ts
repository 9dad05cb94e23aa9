import { spawn, type StdioOptions } from 'node:child_process';
import path from 'node:path';

/**
 * Running the project's tools (Astro, wrangler). They are started as `node <their JS entry>` with the project's
 * own Node, never through their `.bin` shims, whose `#!/usr/bin/env node` line may find an older Node on the
 * machine.
 */

export const projectRoot = path.resolve(import.meta.dirname, '../..');
export const ASTRO = path.join(projectRoot, 'node_modules/astro/bin/astro.mjs');
/** Astro's entry in the project or in a copy of it (scripts/lib/project-copy.ts). */
export const astroEntry = (projectDir: string) => path.join(projectDir, path.relative(projectRoot, ASTRO));
export const WRANGLER = path.join(projectRoot, 'node_modules/wrangler/bin/wrangler.js');
export const VITEST = path.join(projectRoot, 'node_modules/vitest/vitest.mjs');

/**
 * `X_LOCAL_OBSERVABILITY: 'false'`: wrangler dev otherwise keeps a local trace store (`<state>/v3/observability`)
 * that records each outgoing fetch's whole URL, webhook URLs and push endpoints included (docs/deploy.md, "Logs and
 * traces"); production traces are off in wrangler.jsonc for the same reason.
 * `CLOUDFLARE_CF_FETCH_ENABLED: 'false'`: Miniflare (the build's prerendering and `wrangler dev`) otherwise fetches
 * a sample `Request.cf` object from Cloudflare every 30 days, and offline prints an `ENOTFOUND` stack trace for each
 * workerd it starts; the worker reads nothing from `request.cf`, and the tests' servers already use the placeholder.
 */
export const quietToolEnv = {
  ASTRO_TELEMETRY_DISABLED: '1',
  WRANGLER_SEND_METRICS: 'false',
  NO_COLOR: '1',
  X_LOCAL_OBSERVABILITY: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
};

/**
 * Runs a tool's JS entry with the project's Node in `cwd` (the project folder by default); resolves with what it
 * printed (nothing when its output goes to the terminal: `stdio: 'inherit'`), or rejects with that output, naming
 * `what`. An abort of `signal` ends the tool.
 */
export function runTool(
  entry: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  stdio: StdioOptions,
  what: string,
  {
    cwd = projectRoot,
    signal,
    onOutput,
  }: {
    cwd?: string | undefined;
    signal?: AbortSignal;
    /** Each piece of output as it comes (with `stdio: 'pipe'`), and which stream it came on. */
    onOutput?: (text: string, stream: 'stdout' | 'stderr') => void;
  } = {},
) {
  const child = spawn(process.execPath, [entry, ...args], { cwd, env, stdio, ...(signal ? { signal } : {}) });
  let output = '';
  for (const stream of ['stdout', 'stderr'] as const)
    child[stream]?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      onOutput?.(chunk.toString(), stream);
    });
  return new Promise<string>((resolve, reject) => {
    child.on('error', reject);
    // 'close', not 'exit': the output streams may still hold the end of the output at 'exit'.
    child.on('close', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${what} failed (${code}):\n${output}`)),
    );
  });
}

/**
 * Runs wrangler with the project's Node in `cwd` (the project folder by default) and resolves with its output, or
 * rejects with it.
 */
export function runWrangler(args: string[], cwd?: string): Promise<string> {
  const env = { ...process.env, ...quietToolEnv, CI: 'true' };
  return runTool(WRANGLER, args, env, 'pipe', `wrangler ${args.slice(0, 3).join(' ')}`, { cwd });
}
