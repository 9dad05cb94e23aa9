import { constants, type Dirent } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import path from 'node:path';
import { classifyTreeEntries, type TreeEntry, type TreeEntryType } from '../core/content/event-tree.ts';
import type { ContentProblem, EventFile } from '../core/content/validate-event-files.ts';
import { DEFAULT_EVENTS_DIRECTORY } from './events-directory.ts';

/**
 * The one reader of the events folder, used by `npm run validate`, the build's content collection and the
 * event commands alike: it reads exactly the regular `<provider>/<id>.json` files and reports every other
 * entry. A file is opened without following a link, so a file swapped for a link after the listing is
 * not read either.
 */

/** How many files are open at once: a long history must not run out of file descriptors. */
const READ_BATCH = 256;

/** The events folder does not exist: said in one line, by the validator and the build alike. */
export class EventsFolderMissing extends Error {
  override name = 'EventsFolderMissing';
  constructor(root: string) {
    super(
      `The events folder ${root} does not exist; set EVENTS_DIR to an existing folder, or leave it unset to use content/events.`,
    );
  }
}

export interface EventTreeRead {
  files: EventFile[];
  problems: ContentProblem[];
}

const entryType = (entry: Dirent): TreeEntryType =>
  entry.isSymbolicLink() ? 'symlink' : entry.isDirectory() ? 'directory' : entry.isFile() ? 'file' : 'other';

async function listEntries(root: string): Promise<TreeEntry[]> {
  const top = await readdir(root, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'ENOENT' || error.code === 'ENOTDIR' ? new EventsFolderMissing(root) : error;
  });
  const entries: TreeEntry[] = [];
  for (const entry of top) {
    const type = entryType(entry);
    entries.push({ path: entry.name, type });
    if (type !== 'directory') continue;
    for (const inner of await readdir(path.join(root, entry.name), { withFileTypes: true })) {
      entries.push({ path: `${entry.name}/${inner.name}`, type: entryType(inner) });
    }
  }
  return entries.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** Reads a regular file, never through a symbolic link; undefined when it is not one (any more). */
async function readRegularFile(file: string): Promise<string | undefined> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ELOOP') return undefined;
    throw error;
  });
  if (handle === undefined) return undefined;
  try {
    return (await handle.stat()).isFile() ? await handle.readFile('utf8') : undefined;
  } finally {
    await handle.close();
  }
}

/**
 * Every event file of the tree, and a problem for every entry that is not one. The default folder may be
 * missing (a clone of a project whose events were all deleted): that is an empty tree. A folder named by
 * EVENTS_DIR must exist.
 */
export async function readEventTree(root: string): Promise<EventTreeRead> {
  let entries: TreeEntry[];
  try {
    entries = await listEntries(root);
  } catch (error) {
    if (error instanceof EventsFolderMissing && path.normalize(root) === DEFAULT_EVENTS_DIRECTORY)
      return { files: [], problems: [] };
    throw error;
  }
  const { eventFiles, problems } = classifyTreeEntries(entries);
  const files: EventFile[] = [];
  for (let start = 0; start < eventFiles.length; start += READ_BATCH) {
    const batch = eventFiles.slice(start, start + READ_BATCH);
    const texts = await Promise.all(batch.map((file) => readRegularFile(path.join(root, file))));
    batch.forEach((file, index) => {
      const text = texts[index];
      if (text === undefined)
        problems.push({
          file,
          field: null,
          message: 'is not a regular file (it changed while it was read)',
          fix: 'run the check again',
        });
      else files.push({ path: file, text });
    });
  }
  return { files, problems };
}

/** The event files of the tree, without the problems of the entries that are not event files. */
export const readEventFiles = async (root: string): Promise<EventFile[]> => (await readEventTree(root)).files;
