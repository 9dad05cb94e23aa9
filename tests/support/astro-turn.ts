import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * One Astro process at a time across the served test files, which otherwise run side by side: every `astro
 * build` and `astro dev` of the project (copies included, whose node_modules is a link to this one) writes
 * the same content store (`.astro/data-store.json`) and caches. A file that runs Astro takes the turn in its
 * `beforeAll` and gives it back in `afterAll` (or around the one call). The turn is a folder made with
 * `mkdir` (atomic) holding the owner's process id, so a turn left by a test process that died is taken over.
 */

const TURN = path.resolve(import.meta.dirname, '../../node_modules/.cache/departures-board-astro-turn');
const OWNER = path.join(TURN, 'pid');

/** How long a served test file may wait for its turn: the other files' builds, on a busy machine. */
export const ASTRO_TURN_TIMEOUT_MS = 900_000;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

export async function takeAstroTurn(): Promise<void> {
  await mkdir(path.dirname(TURN), { recursive: true });
  for (;;) {
    try {
      await mkdir(TURN);
      await writeFile(OWNER, String(process.pid));
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number(await readFile(OWNER, 'utf8').catch(() => ''));
    // No pid yet: the owner is between its mkdir and its write; wait like for a live one.
    if (owner > 0 && !alive(owner)) await rm(TURN, { recursive: true, force: true });
    else await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export async function giveBackAstroTurn(): Promise<void> {
  const owner = Number(await readFile(OWNER, 'utf8').catch(() => ''));
  if (owner === process.pid) await rm(TURN, { recursive: true, force: true });
}

/** Runs `work` (an Astro build, say) in this process's turn. */
export async function inAstroTurn<T>(work: () => Promise<T>): Promise<T> {
  await takeAstroTurn();
  try {
    return await work();
  } finally {
    await giveBackAstroTurn();
  }
}
