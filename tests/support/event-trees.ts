import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { tempFolder } from './temp-folders.ts';

/**
 * Writes an event tree (relative path → file text) as `events/` in a fresh temporary folder and returns its
 * path; the folder around it stands for `content/`, where a data set marker would sit.
 */
export async function writeEventTree(files: Record<string, string>): Promise<string> {
  const root = path.join(tempFolder('content'), 'events');
  await mkdir(root);
  for (const [relative, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
    await writeFile(path.join(root, relative), text);
  }
  return root;
}
