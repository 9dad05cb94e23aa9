import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Folders of a test file's own in the system's temp folder (`departures-board-<name>-XXXXXX`), removed after the
 * file's last hook by tests/support/temp-folders-removed.ts, a setup file of every project: a run of `npm test`
 * leaves nothing of its own behind in the temp folder.
 */
const made = new Set<string>();

export function tempFolder(name: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), `departures-board-${name}-`));
  made.add(folder);
  return folder;
}

/** Removes every folder `tempFolder` made since the last call. */
export function removeTempFolders(): void {
  for (const folder of made) rmSync(folder, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  made.clear();
}
