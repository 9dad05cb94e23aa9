import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { EventFile } from '../core/content/validate-event-files.ts';

/** How many files are open at once: a long history must not run out of file descriptors. */
const READ_BATCH = 256;

/** Every `.json` file under `root`, with paths relative to it. */
export async function readEventFiles(root: string): Promise<EventFile[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const jsonFiles = entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
    .map((entry) => path.join(entry.parentPath, entry.name));
  const files: EventFile[] = [];
  for (let start = 0; start < jsonFiles.length; start += READ_BATCH) {
    const batch = jsonFiles.slice(start, start + READ_BATCH);
    files.push(
      ...(await Promise.all(
        batch.map(async (file) => ({
          path: path.relative(root, file).split(path.sep).join('/'),
          text: await readFile(file, 'utf8'),
        })),
      )),
    );
  }
  return files;
}
