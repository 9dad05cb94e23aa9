import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSite } from '../local-server.ts';
import { copyProject } from '../project-copy.ts';
import { projectRoot } from '../tools.ts';

/**
 * The build `npm run demo` serves: made in a copy of the project (scripts/lib/project-copy.ts) under the temp
 * folder, never in the checkout's dist/ or .wrangler, so that a `npm start` or a test run beside it is left alone;
 * kept there and used again while the project's sources, the address and the repository are the same (the build is
 * a function of them), so that a second run starts in seconds.
 */

/** What a build depends on: the parts project-copy.ts copies for a build, less the scripts, and the lock file. */
const SOURCES = [
  'astro.config.mjs',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'wrangler.jsonc',
  'src',
  'functions',
  'public',
  'migrations',
  'content',
];

/** The folder under the temp folder where the demo keeps its build and the record of what it was built from. */
export const DEMO_DIR = path.join(tmpdir(), 'departures-board-demo');
const RECORD = path.join(DEMO_DIR, 'build.json');

interface BuildRecord {
  key: string;
  projectDir: string;
}

/** A hash of every source file's path and bytes, the address and the repository. */
async function buildKey(siteUrl: string, repositoryUrl: string): Promise<string> {
  const hash = createHash('sha256').update(`${siteUrl}\n${repositoryUrl}\n`);
  for (const part of SOURCES) {
    const full = path.join(projectRoot, part);
    const entries = await readdir(full, { recursive: true, withFileTypes: true }).catch(() => null);
    const files =
      entries === null
        ? [full]
        : entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
    for (const file of files.sort()) {
      const bytes = await readFile(file).catch(() => null);
      if (bytes !== null) hash.update(`${path.relative(projectRoot, file)}\0`).update(bytes);
    }
  }
  return hash.digest('hex');
}

/**
 * The worker config of a build for `siteUrl` with `repositoryUrl`: the kept one when its sources are unchanged,
 * else a new build (about a minute), the old one removed. `fresh` says which.
 */
export async function demoBuild(
  siteUrl: string,
  repositoryUrl: string,
): Promise<{ workerConfig: string; built: 'kept' | 'new' }> {
  const key = await buildKey(siteUrl, repositoryUrl);
  const record = await readFile(RECORD, 'utf8')
    .then((text) => JSON.parse(text) as BuildRecord)
    .catch(() => null);
  const configOf = (projectDir: string) => path.join(projectDir, 'dist/server/wrangler.json');
  if (record !== null && record.key === key && (await readFile(configOf(record.projectDir)).catch(() => null)))
    return { workerConfig: configOf(record.projectDir), built: 'kept' };

  await mkdir(DEMO_DIR, { recursive: true });
  if (record !== null) await rm(record.projectDir, { recursive: true, force: true });
  await rm(RECORD, { force: true });
  // Inside DEMO_DIR: copyProject makes its folder under the temp folder with this prefix.
  const projectDir = await copyProject(`${path.basename(DEMO_DIR)}/build-`);
  try {
    await buildSite({ siteUrl, projectDir, outDir: path.join(projectDir, 'dist'), repositoryUrl });
  } catch (error) {
    await rm(projectDir, { recursive: true, force: true });
    throw error;
  }
  await writeFile(RECORD, JSON.stringify({ key, projectDir } satisfies BuildRecord));
  return { workerConfig: configOf(projectDir), built: 'new' };
}
