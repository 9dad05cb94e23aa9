import { randomUUID } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Turns a copy of a build (an `astro build` output folder: `client/` and `server/`) into another build of the same
 * content, as `BUILD_ID=<id> astro build` would make it, in a second instead of a build's minute: the build id is
 * one string, which the build writes into the worker (the `__DEPARTURES_BUILD_ID__` define,
 * src/integrations/build-id.ts) and into the stamp of every data file (src/core/build-stamp.ts). A test or a
 * benchmark that needs a new build's first request (docs/delivery.md, "A new build") serves the copy after this.
 * Resolves with the new id.
 */
export async function giveNewBuildId(dir: string, id = `${new Date().toISOString()}-${randomUUID().slice(0, 8)}`) {
  const board = JSON.parse(await readFile(path.join(dir, 'client/data/board.json'), 'utf8')) as {
    stamp: { buildId: string };
  };
  const old = Buffer.from(board.stamp.buildId);
  const replaced = { worker: 0, data: 0 };
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const bytes = await readFile(file);
    if (bytes.indexOf(old) < 0) continue;
    await writeFile(file, bytes.toString('utf8').replaceAll(board.stamp.buildId, id));
    replaced[file.startsWith(path.join(dir, 'server')) ? 'worker' : 'data'] += 1;
  }
  // The worker must carry the id it checks the data files' stamps against, or the copy would serve no data.
  if (replaced.worker === 0 || replaced.data === 0)
    throw new Error(`the build id ${board.stamp.buildId} was not found in both the worker and the data of ${dir}`);
  return id;
}
