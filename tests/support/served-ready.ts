import { readFile } from 'node:fs/promises';
import { inject } from 'vitest';
import type { ServedOutcome } from './served-build.ts';

/**
 * Setup of every file of the `served` project: waits until the run's one build is served (it is made in the
 * background while the core and node files run: tests/support/served-build.ts), and fails the file with the
 * build's own error when it could not be. A hang guard, not a timing check: the build takes tens of seconds.
 */

const HANG_GUARD_MS = 10 * 60_000;

async function servedOutcome(file: string): Promise<ServedOutcome> {
  const deadline = Date.now() + HANG_GUARD_MS;
  while (Date.now() < deadline) {
    const text = await readFile(file, 'utf8').catch(() => null);
    // The file is written with one writeFile, not atomically: a read can meet it created and still empty.
    if (text !== null && text !== '') return JSON.parse(text) as ServedOutcome;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { ok: false, error: `the served build was not ready after ${HANG_GUARD_MS / 60_000} minutes` };
}

const outcome = await servedOutcome(inject('servedReadyFile'));
if (!outcome.ok) throw new Error(`The served build could not be served:\n${outcome.error}`);
