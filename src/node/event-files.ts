import { constants, type Dirent } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import path from 'node:path';
import { decodeEventFile, EVENT_FILE_MAX_BYTES, oversizeProblem } from '../core/content/event-file-bytes.ts';
import { classifyTreeEntries, type TreeEntry, type TreeEntryType } from '../core/content/event-tree.ts';
import type { ContentProblem, EventFile } from '../core/content/validate-event-files.ts';
import { DEFAULT_EVENTS_DIRECTORY } from './events-directory.ts';

/**
 * The one reader of the events folder, used by `npm run validate`, the build's content collection and the
 * event commands alike: it reads exactly the regular `<provider>/<id>.json` files and reports every other
 * entry. A file is opened without following a link, so a file swapped for a link after the listing is
 * not read either. A file over 16 KiB is refused by its size without being read, and bytes that are not
 * UTF-8 are refused, not replaced (src/core/content/event-file-bytes.ts).
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

/** What reading one event file gave: its bytes, its size when that is over the limit, or nothing (not a regular file). */
type FileRead = { bytes: Uint8Array } | { oversize: number } | undefined;

/**
 * Reads a regular file, never through a symbolic link; undefined when it is not one (any more). The size is
 * looked at first and at most one byte more than the limit is read, so a file of any size costs at most 16 KiB:
 * a file over the limit is refused by its size, also one that grew after the look.
 */
async function readRegularFile(file: string): Promise<FileRead> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ELOOP') return undefined;
    throw error;
  });
  if (handle === undefined) return undefined;
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return undefined;
    if (stats.size > EVENT_FILE_MAX_BYTES) return { oversize: stats.size };
    const buffer = new Uint8Array(EVENT_FILE_MAX_BYTES + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > EVENT_FILE_MAX_BYTES) return { oversize: Math.max(length, (await handle.stat()).size) };
    return { bytes: buffer.subarray(0, length) };
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
    const reads = await Promise.all(batch.map((file) => readRegularFile(path.join(root, file))));
    batch.forEach((file, index) => {
      const read = reads[index];
      if (read === undefined)
        problems.push({
          file,
          field: null,
          message: 'is not a regular file (it changed while it was read)',
          fix: 'run the check again',
        });
      else if ('oversize' in read) problems.push(oversizeProblem(file, read.oversize));
      else {
        const decoded = decodeEventFile(file, read.bytes);
        if ('file' in decoded) files.push(decoded.file);
        else problems.push(decoded.problem);
      }
    });
  }
  return { files, problems };
}

/** The event files of the tree that could be read as text, without the problems of the others. */
export const readEventFiles = async (root: string): Promise<EventFile[]> => (await readEventTree(root)).files;
