import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { EventFile } from '../core/content/validate-event-files.ts';

/** Every `.json` file under `root`, with paths relative to it. */
export async function readEventFiles(root: string): Promise<EventFile[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const jsonFiles = entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
    .map((entry) => path.join(entry.parentPath, entry.name));
  return Promise.all(
    jsonFiles.map(async (file) => ({
      path: path.relative(root, file).split(path.sep).join('/'),
      text: await readFile(file, 'utf8'),
    })),
  );
}
