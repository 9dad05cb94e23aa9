import { cp, mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { projectRoot } from './tools.ts';

/**
 * A copy of the project whose Astro runs share nothing with the project's own, so that they run beside them (the
 * tests' builds, `npm test`'s type check): the project's parts are copied, and node_modules is a folder of the
 * copy's own whose entries link to the project's, all but the caches Astro and Vite write there
 * (node_modules/.astro holds the content store every build and check writes; node_modules/.vite, Vite's). A build
 * in the copy prerenders with the copy's own local state (its `.wrangler`), and the worker's inspector is off in
 * every Astro run (astro.config.mjs), so no port is contested either.
 */

const PARTS = [
  'astro.config.mjs',
  'package.json',
  'tsconfig.json',
  'wrangler.jsonc',
  'worker-configuration.d.ts',
  'src',
  'functions',
  'public',
  'scripts',
  'migrations',
  'content',
];

/** Written by Astro and Vite in node_modules: each copy gets its own. */
const TOOL_CACHES = new Set(['.astro', '.vite', '.vite-temp']);

/**
 * Copies the project into a new folder under the temp folder named with `prefix`, with `extraParts` beside the
 * parts a build needs; returns the folder.
 */
export async function copyProject(prefix: string, extraParts: readonly string[] = []): Promise<string> {
  const copy = await mkdtemp(path.join(tmpdir(), prefix));
  try {
    for (const part of [...PARTS, ...extraParts])
      await cp(path.join(projectRoot, part), path.join(copy, part), { recursive: true });
    await mkdir(path.join(copy, 'node_modules'));
    for (const entry of await readdir(path.join(projectRoot, 'node_modules'))) {
      if (TOOL_CACHES.has(entry)) continue;
      await symlink(path.join(projectRoot, 'node_modules', entry), path.join(copy, 'node_modules', entry));
    }
    return copy;
  } catch (error) {
    await rm(copy, { recursive: true, force: true });
    throw error;
  }
}
