import { readdir, readFile } from 'node:fs/promises';

/** Every process whose parent chain leads to `root` (read from /proc: pid, then ppid after the name). */
export async function descendantsOf(root: number): Promise<number[]> {
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[1] !== undefined) parents.set(Number(entry), Number(fields[1]));
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const [pid, ppid] of parents) {
      if (ppid === parent && !found.includes(pid)) {
        found.push(pid);
        queue.push(pid);
      }
    }
  }
  return found;
}

export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The command name of each process (`/proc/<pid>/comm`), '' for one already gone. */
export const commandNames = (pids: number[]): Promise<string[]> =>
  Promise.all(pids.map(async (pid) => (await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '')).trim()));
