import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { projectRoot } from '../../scripts/lib/tools.ts';

/**
 * Global setup of the whole run: the tests leave the checkout's own work alone. What `npm start`, `npm run dev`
 * and `npm run watch` build, serve and keep (dist/, .astro/, Astro's content store, .wrangler/ with the local D1,
 * KV and rate-limiter state, the local VAPID pair) is read before the first test and again after the last; any
 * difference fails the run, naming the files. The tests build, serve and keep state in folders of their own
 * (docs/testing.md), so a server running from this checkout keeps answering, with the same data, during and after.
 *
 * A server of the user's own may write its D1 and rate-limiter databases meanwhile (a subscription, a request to
 * MCP), and bundles itself into .wrangler/tmp as it starts: those are compared by name only or left out, so that
 * its use is not taken for the tests'. Starting a build of your own during the run (npm start, npm run build) does
 * change dist/: the message says so.
 */

const WATCHED = ['dist', '.astro', 'node_modules/.astro', '.wrangler'];

/** Every file below `folder` (none when it does not exist). */
async function files(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => !entry.isDirectory()).map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * What a `npm start` or `npm run dev` of the user's own writes while it runs (its databases, its bundles in
 * `.wrangler/tmp`, its secrets file): compared by name at most, so that its use is not taken for a test's.
 */
const writtenByAServer = (file: string) => file.endsWith('.sqlite');
/**
 * Left out: the server's bundles and secrets file, and SQLite's companions of a database (`-wal`, `-shm`,
 * `-journal`), which come and go with the server's own connections (a checkpoint when it closes one removes them).
 */
const ignored = (relative: string) =>
  relative.startsWith(`${path.join('.wrangler', 'tmp')}${path.sep}`) ||
  path.basename(relative) === 'secrets.env' ||
  /\.sqlite-(wal|shm|journal)$/.test(relative);

/** Each watched file, by its path in the checkout, with a digest of its content (or its name alone). */
async function fingerprint(): Promise<Map<string, string>> {
  const prints = new Map<string, string>();
  for (const folder of WATCHED) {
    for (const file of await files(path.join(projectRoot, folder))) {
      const relative = path.relative(projectRoot, file);
      if (ignored(relative)) continue;
      if (writtenByAServer(file)) {
        prints.set(relative, 'a database');
        continue;
      }
      const content = await readFile(file).catch(() => Buffer.from('(unreadable)'));
      prints.set(relative, createHash('sha256').update(content).digest('hex'));
    }
  }
  return prints;
}

function differences(before: Map<string, string>, after: Map<string, string>): string[] {
  const found: string[] = [];
  for (const [file, print] of after) {
    if (!before.has(file)) found.push(`written: ${file}`);
    else if (before.get(file) !== print) found.push(`changed: ${file}`);
  }
  for (const file of before.keys()) if (!after.has(file)) found.push(`removed: ${file}`);
  return found;
}

export default async function setup() {
  const before = await fingerprint();
  return async () => {
    const found = differences(before, await fingerprint());
    if (found.length === 0) return;
    const shown = found.slice(0, 20).join('\n  ');
    const more = found.length > 20 ? `\n  … and ${found.length - 20} more` : '';
    throw new Error(
      `The checkout's own build or local state changed during the test run (a npm start serving it would break):\n  ${shown}${more}\nA test builds, serves and keeps state in folders of its own (docs/testing.md); if you built or ran a command of your own in this checkout meanwhile, that was it.`,
    );
  };
}
